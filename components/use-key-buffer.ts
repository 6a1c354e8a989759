import { useStdin } from "ink";
import { useEffect, useRef } from "react";

/**
 * Keeps the terminal in raw mode for the app's whole life and holds on to keys typed while no
 * screen takes them (the "starting…" box while the session loads). Once a screen is up they are
 * replayed to it in order, as if typed just then.
 *
 * Raw mode from the start matters as much as the buffer: in the terminal's cooked mode a key is
 * echoed onto the screen, Enter arrives as a line feed (Ctrl+J, a newline) and Ctrl+C kills.
 */
export function useKeyBuffer(waiting: boolean): void {
	const { internal_eventEmitter: emitter, setRawMode, isRawModeSupported } = useStdin();
	const kept = useRef<string[]>([]);

	useEffect(() => {
		if (!isRawModeSupported) return;
		// Ink reads the terminal only while some component holds raw mode; this one always does.
		setRawMode(true);
		return () => setRawMode(false);
	}, [isRawModeSupported, setRawMode]);

	useEffect(() => {
		if (!waiting) {
			// The new screen's input handlers subscribed in its own effects, which ran before this
			// (a parent's effects run after its children's).
			for (const raw of kept.current.splice(0)) emitter.emit("input", raw);
			return;
		}
		const keep = (raw: string) => {
			kept.current.push(raw);
		};
		emitter.on("input", keep);
		return () => {
			emitter.removeListener("input", keep);
		};
	}, [waiting, emitter]);
}
