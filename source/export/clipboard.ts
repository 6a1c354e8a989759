import { log } from "../logger.js";
import { runProcess } from "./run-process.js";

/**
 * How the text reached a clipboard: the system one, the terminal's via OSC 52, or OSC 52 sent inside
 * a tmux whose `set-clipboard` is not `on`, which drops it (so it must not be reported as copied).
 */
export type ClipboardMethod = "clipboard" | "osc52" | "osc52-dropped-by-tmux";

/** Where copyToClipboard looks for SSH/tmux and where it writes escape sequences. */
export interface CopyOptions {
	env?: NodeJS.ProcessEnv;
	write?: (data: string) => unknown;
}

/** True over SSH, where the system clipboard would be the remote machine's, not the user's. */
export function isRemoteSession(env: NodeJS.ProcessEnv): boolean {
	return Boolean(env.SSH_TTY || env.SSH_CONNECTION);
}

/** The OSC 52 "set clipboard" sequence for `text`. */
export function osc52Sequence(text: string): string {
	// BEL terminates rather than ST: more terminals accept it. Plain inside tmux too: tmux takes OSC 52
	// from a pane (with `set-clipboard on`) and passes it on, while its DCS passthrough is off by default.
	return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

/** tmux's `set-clipboard` (`on`, `external`, `off`) for the server in `env.TMUX`, or undefined when it cannot be asked. */
async function tmuxSetClipboard(env: NodeJS.ProcessEnv): Promise<string | undefined> {
	try {
		const shown = await runProcess("tmux", ["show-options", "-gv", "set-clipboard"], { env });
		return shown.code === 0 ? shown.stdout.trim() : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Copies text to the system clipboard (clipboardy); over SSH, or when that fails (no display),
 * asks the terminal to do it with OSC 52 instead. Inside tmux, only `set-clipboard on` lets a pane's
 * OSC 52 through, so tmux is asked and any other answer is reported as dropped.
 */
export async function copyToClipboard(text: string, options: CopyOptions = {}): Promise<ClipboardMethod> {
	const env = options.env ?? process.env;
	const write = options.write ?? ((data: string) => process.stdout.write(data));
	if (!isRemoteSession(env)) {
		try {
			// Lazy: clipboardy pulls in execa and friends, which /dump-less sessions never need.
			const { default: clipboard } = await import("clipboardy");
			await clipboard.write(text);
			return "clipboard";
		} catch (error) {
			// clipboardy's message blames a missing xsel even when only the display is missing.
			log.warn(`clipboard: ${error instanceof Error ? error.message : String(error)}; falling back to OSC 52`);
		}
	}
	write(osc52Sequence(text));
	if (!env.TMUX) return "osc52";
	const setting = await tmuxSetClipboard(env);
	return setting === undefined || setting === "on" ? "osc52" : "osc52-dropped-by-tmux";
}
