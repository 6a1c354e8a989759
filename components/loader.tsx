import { Text } from "ink";
import { useEffect, useState } from "react";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Props of Loader. */
export interface LoaderProps {
	readonly label: string;
	readonly startedAt: number;
}

/** A spinner with what is happening, the elapsed time, and how to stop it. */
export function Loader({ label, startedAt }: LoaderProps) {
	const [now, setNow] = useState(Date.now());
	useEffect(() => {
		const timer = setInterval(() => setNow(Date.now()), 100);
		return () => clearInterval(timer);
	}, []);
	const elapsed = Math.max(0, Math.floor((now - startedAt) / 1000));
	const frame = FRAMES[Math.floor(now / 100) % FRAMES.length];
	return (
		<Text>
			<Text color="cyan">{frame}</Text> {label}… <Text dimColor>({elapsed}s · Esc to stop)</Text>
		</Text>
	);
}
