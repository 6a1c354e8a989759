import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** The terminal's size, updated on resize. */
export function useTerminalSize(): { columns: number; rows: number } {
	const { stdout } = useStdout();
	const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
	const [size, setSize] = useState(read);
	useEffect(() => {
		// Ink 6 re-lays out on resize but does not re-render React: listen ourselves.
		const onResize = () => setSize(read());
		stdout.on("resize", onResize);
		return () => {
			stdout.off("resize", onResize);
		};
	});
	return size;
}
