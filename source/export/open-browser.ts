import { spawn } from "node:child_process";
import { log } from "../logger.js";
import { parseShellWords } from "./shell-words.js";

// An opener that fails (no display, no handler) does so at once; one still running after this is
// a browser that took over, which counts as success.
const QUICK_EXIT_MS = 1000;

/** The command line that opens `target`: `$BROWSER` (with `%s` or the target appended), else the OS opener. */
export function browserCommand(
	target: string,
	env: NodeJS.ProcessEnv = process.env,
	platform: NodeJS.Platform = process.platform,
): string[] {
	const browser = env.BROWSER?.trim();
	if (browser) {
		const words = parseShellWords(browser);
		return words.some((w) => w.includes("%s")) ? words.map((w) => w.replaceAll("%s", target)) : [...words, target];
	}
	if (platform === "darwin") return ["open", target];
	// start's first quoted argument is a window title; the empty one keeps a quoted path from becoming it.
	if (platform === "win32") return ["cmd", "/c", "start", '""', target];
	return ["xdg-open", target];
}

/** Opens a file or URL in the browser; false when the opener is missing or fails straight away. */
export function openInBrowser(target: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
	let command: string[];
	try {
		command = browserCommand(target, env);
	} catch (error) {
		log.warn(`open-browser: bad $BROWSER: ${error instanceof Error ? error.message : String(error)}`);
		return Promise.resolve(false);
	}
	const [program, ...args] = command;
	if (!program) return Promise.resolve(false);
	return new Promise((resolve) => {
		const finish = (opened: boolean) => {
			clearTimeout(timer);
			resolve(opened);
		};
		const timer = setTimeout(() => finish(true), QUICK_EXIT_MS);
		try {
			// Detached with ignored stdio: the browser must neither die with xcsh nor draw over the TUI.
			const child = spawn(program, args, { detached: true, stdio: "ignore", env });
			child.unref();
			child.once("error", (error) => {
				log.warn(`open-browser: ${program}: ${error.message}`);
				finish(false);
			});
			child.once("exit", (code, signal) => {
				if (code !== 0) log.warn(`open-browser: ${program} exited with ${code ?? signal}`);
				finish(code === 0);
			});
		} catch (error) {
			log.warn(`open-browser: ${program}: ${error instanceof Error ? error.message : String(error)}`);
			finish(false);
		}
	});
}
