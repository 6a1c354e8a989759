import { describeCompaction } from "../render/compaction-progress.js";
import type { AgentSessionEvent } from "../session/agent-session-events.js";
import type { ProgressTerminal } from "./read-progress.js";

const REDRAW_EVERY_MS = 100;
const ESCAPE = 0x1b;
const CTRL_C = 0x03;
const LABEL = "Compacting the context";

/**
 * A compaction's progress in print mode: on a terminal, one line redrawn in place on stderr and
 * Escape (or Ctrl+C) stopping it; on a pipe, a line when it starts and one when it is done.
 * Returns the listener to subscribe to the session's events.
 */
export function printCompaction(
	terminal: ProgressTerminal,
	say: (line: string) => void,
	stop: () => void,
	now: () => number = Date.now,
): (event: AgentSessionEvent) => void {
	let drawnAt = 0;
	let stopListening: (() => void) | undefined;
	const draw = (text: string): void => {
		drawnAt = now();
		terminal.write(`\r\u001b[2K${text}`);
	};
	return (event) => {
		switch (event.type) {
			case "compaction_start":
				if (!terminal.interactive) {
					say(`${LABEL}…`);
					break;
				}
				stopListening ??= terminal.listenForKeys((bytes) => {
					if (bytes.includes(ESCAPE) || bytes.includes(CTRL_C)) stop();
				});
				draw(describeCompaction(LABEL, undefined));
				break;
			case "compaction_progress":
				if (terminal.interactive && now() - drawnAt >= REDRAW_EVERY_MS) draw(describeCompaction(LABEL, event.step));
				break;
			case "compaction_end":
				stopListening?.();
				stopListening = undefined;
				if (terminal.interactive && drawnAt > 0) terminal.write("\r\u001b[2K");
				drawnAt = 0;
				break;
			case "session_compact":
				say(`Compacted ${event.tokensBefore.toLocaleString("en-US")} tokens into a summary`);
				break;
			default:
				break;
		}
	};
}
