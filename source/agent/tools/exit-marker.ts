// biome-ignore-all lint/suspicious/noControlCharactersInRegex: the marker is an escape sequence.

/** Environment variable that carries the model's command into the wrapper script. */
export const COMMAND_ENV = "XCSH_BASH_COMMAND";

/**
 * The `bash -c` script that runs the command. Linux flushes unread pty output when the session leader
 * exits (node-pty issue #72), so the shell must not exit until we have read everything: its EXIT trap
 * prints a marker after the last output and waits for us to answer on the tty before it exits.
 * The command arrives via the environment and runs through `eval` on the script's first line, so error
 * messages keep the command's own line numbers; the variable is unset first so its children never see it.
 */
export const WRAPPER_SCRIPT = [
	`trap '__xcsh_status=$?; printf "\\033]7770;%d\\007" "$__xcsh_status"; IFS= read -r -t 10 __xcsh_ack </dev/tty 2>/dev/null; exit "$__xcsh_status"' EXIT`,
	`__xcsh_command=$${COMMAND_ENV}`,
	`unset ${COMMAND_ENV}`,
	`eval "$__xcsh_command"`,
].join("; ");

const MARKER = /\x1b\]7770;\d+\x07/;
// A read can end part-way through the marker; hold back anything that could still become one.
const MARKER_PREFIX = /\x1b(?:\](?:7(?:7(?:7(?:0(?:;\d*)?)?)?)?)?)?$/;

/** Output before the marker, and whether the marker has now been seen. */
export interface ScanResult {
	readonly text: string;
	readonly done: boolean;
}

/** Finds the wrapper's exit marker in raw pty output; output after it (the tty echo of our answer) is dropped. */
export class ExitMarkerScanner {
	private carry = "";
	private done = false;

	/** Scans the next raw chunk. */
	push(chunk: string): ScanResult {
		if (this.done) return { text: "", done: true };
		const text = this.carry + chunk;
		this.carry = "";
		const marker = MARKER.exec(text);
		if (marker !== null) {
			this.done = true;
			return { text: text.slice(0, marker.index), done: true };
		}
		const partial = MARKER_PREFIX.exec(text);
		if (partial === null) return { text, done: false };
		this.carry = text.slice(partial.index);
		return { text: text.slice(0, partial.index), done: false };
	}

	/** Whatever was held back; call when the stream ends without a marker (the command replaced the trap, or exec'd). */
	flush(): string {
		const rest = this.carry;
		this.carry = "";
		return rest;
	}
}
