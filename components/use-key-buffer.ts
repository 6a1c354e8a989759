import { useStdin } from "ink";
import { useEffect, useRef } from "react";

/**
 * Keys typed before the process took raw mode (while node itself was starting) went through the
 * terminal's cooked mode, whose ICRNL turned Enter's CR into LF; they all arrive in the first read.
 * There LF is Enter, not Ctrl+J (a newline in the editor).
 */
function cookedEnter(raw: string): string {
	return raw.replaceAll("\n", "\r");
}

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
	const firstRead = useRef<"unread" | "reading" | "read">("unread");

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
			if (firstRead.current === "unread") {
				// Every key of one read is emitted in the same tick.
				firstRead.current = "reading";
				setImmediate(() => {
					firstRead.current = "read";
				});
			}
			kept.current.push(firstRead.current === "reading" ? cookedEnter(raw) : raw);
		};
		emitter.on("input", keep);
		return () => {
			emitter.removeListener("input", keep);
		};
	}, [waiting, emitter]);
}
