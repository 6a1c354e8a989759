import { log } from "../logger.js";

/** How the text reached a clipboard: the system one, or the terminal's via OSC 52. */
export type ClipboardMethod = "clipboard" | "osc52";

/** Where copyToClipboard looks for SSH/tmux and where it writes escape sequences. */
export interface CopyOptions {
	env?: NodeJS.ProcessEnv;
	write?: (data: string) => unknown;
}

/** True over SSH, where the system clipboard would be the remote machine's, not the user's. */
export function isRemoteSession(env: NodeJS.ProcessEnv): boolean {
	return Boolean(env.SSH_TTY || env.SSH_CONNECTION);
}

/** The OSC 52 "set clipboard" sequence for `text`, wrapped for tmux when running inside it. */
export function osc52Sequence(text: string, env: NodeJS.ProcessEnv = process.env): string {
	// BEL terminates rather than ST: more terminals accept it, and ST would collide with tmux's wrapper.
	const sequence = `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
	if (!env.TMUX) return sequence;
	// tmux swallows unknown OSCs; its DCS passthrough forwards the payload once each ESC is doubled
	// (needs `allow-passthrough on` in tmux ≥ 3.3).
	return `\x1bPtmux;${sequence.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`;
}

/**
 * Copies text to the system clipboard (clipboardy); over SSH, or when that fails (no display),
 * asks the terminal to do it with OSC 52 instead.
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
	write(osc52Sequence(text, env));
	return "osc52";
}
