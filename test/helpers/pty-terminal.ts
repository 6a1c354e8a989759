import { resolve } from "node:path";
import xterm from "@xterm/headless";
import * as pty from "node-pty";

const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");

/** Options for spawning the CLI in a pseudo-terminal. */
export interface PtyOptions {
	args?: readonly string[];
	cwd: string;
	agentDir: string;
	cols?: number;
	rows?: number;
	env?: NodeJS.ProcessEnv;
	/** Run this shell command line instead of the CLI (`$XCSH` in it is the CLI's command). */
	shell?: string;
}

/**
 * The built CLI in a real pty, its output fed into a headless xterm so tests read the screen as a
 * person sees it (node-pty merges stderr into the same stream, so raw bytes are not asserted).
 */
export class PtyTerminal {
	readonly #process: pty.IPty;
	readonly #terminal: InstanceType<typeof xterm.Terminal>;
	readonly #exited: Promise<number>;
	#raw = "";
	#titles: string[] = [];
	#changed: (() => void)[] = [];

	constructor(options: PtyOptions) {
		const cols = options.cols ?? 100;
		const rows = options.rows ?? 30;
		const env: NodeJS.ProcessEnv = {
			...process.env,
			XCSH_AGENT_DIR: options.agentDir,
			TERM: "xterm-256color",
			FORCE_COLOR: "1",
			ANTHROPIC_API_KEY: "",
			OPENAI_API_KEY: "",
			GEMINI_API_KEY: "",
			OPENROUTER_API_KEY: "",
			...options.env,
		};
		// CI=true makes Ink print only the final frame.
		delete env.CI;
		delete env.CONTINUOUS_INTEGRATION;
		delete env.XCSH_TERMINAL_ID;
		this.#terminal = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
		this.#terminal.onTitleChange((title) => this.#titles.push(title));
		env.XCSH = `${process.execPath} ${BIN}`;
		const [file, args] = options.shell
			? ["/bin/sh", ["-c", options.shell]]
			: [process.execPath, [BIN, ...(options.args ?? [])]];
		this.#process = pty.spawn(file, args, {
			name: "xterm-256color",
			cols,
			rows,
			cwd: options.cwd,
			env: env as Record<string, string>,
		});
		this.#process.onData((data) => {
			this.#raw += data;
			this.#terminal.write(data, () => {
				for (const listener of this.#changed.splice(0)) listener();
			});
		});
		// Resolves once the emulator has also processed everything written before the exit.
		this.#exited = new Promise((resolvePromise) =>
			this.#process.onExit(({ exitCode }) => this.#terminal.write("", () => resolvePromise(exitCode))),
		);
	}

	/** Everything the program wrote, escape sequences included. */
	get raw(): string {
		return this.#raw;
	}

	/** Every window title the program set (OSC 0/2), in order. */
	get titles(): readonly string[] {
		return this.#titles;
	}

	/** The visible screen as text, one line per row, trailing spaces trimmed. */
	screen(): string {
		const buffer = this.#terminal.buffer.active;
		const lines: string[] = [];
		for (let y = 0; y < this.#terminal.rows; y++) {
			lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
		}
		return lines.join("\n");
	}

	/**
	 * Whether the first character of `text`, where it first shows on screen, has a foreground
	 * colour (undefined when the text is not on screen): colour read as the terminal drew it.
	 */
	colouredAt(text: string): boolean | undefined {
		const buffer = this.#terminal.buffer.active;
		for (let y = 0; y < this.#terminal.rows; y++) {
			const line = buffer.getLine(buffer.viewportY + y);
			const x = line?.translateToString(true).indexOf(text) ?? -1;
			if (line && x >= 0) return !line.getCell(x)?.isFgDefault();
		}
		return undefined;
	}

	/** Whether the terminal is on the alternate screen now. */
	get onAlternateScreen(): boolean {
		return this.#terminal.buffer.active.type === "alternate";
	}

	/** Waits until the screen matches (checked after every write), or fails with the last screen. */
	async waitFor(match: string | RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
		const test = (s: string) =>
			typeof match === "string" ? s.includes(match) : match instanceof RegExp ? match.test(s) : match(s);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const screen = this.screen();
			if (test(screen)) return screen;
			const remaining = deadline - Date.now();
			if (remaining <= 0) throw new Error(`screen never matched ${String(match)}; screen was:\n${screen}`);
			await new Promise<void>((resolvePromise) => {
				const timer = setTimeout(resolvePromise, Math.min(remaining, 250));
				this.#changed.push(() => {
					clearTimeout(timer);
					resolvePromise();
				});
			});
		}
	}

	/**
	 * Waits until everything the program wrote so far matches: for a line that may be drawn and
	 * replaced within one chunk of output (a loaded machine coalesces writes), so no screen shows it.
	 */
	async waitForWritten(match: RegExp, timeoutMs = 10_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!match.test(this.#raw)) {
			const remaining = deadline - Date.now();
			if (remaining <= 0) throw new Error(`output never matched ${String(match)}; screen was:\n${this.screen()}`);
			await new Promise<void>((resolvePromise) => {
				const timer = setTimeout(resolvePromise, Math.min(remaining, 250));
				this.#changed.push(() => {
					clearTimeout(timer);
					resolvePromise();
				});
			});
		}
	}

	/** Sends keys as typed. */
	write(data: string): void {
		this.#process.write(data);
	}

	/**
	 * Types text, then waits until the editor line shows it (`› <text>`) before continuing: Ink handles
	 * bursts against stale state, and an Enter that arrives glued to the last characters reads as a paste.
	 * `shown` is what to wait for instead, where the text is typed somewhere else (a filter field).
	 */
	async type(text: string, shown: string = text.length <= 60 ? `› ${text}` : text.slice(-20)): Promise<void> {
		for (const char of text) this.#process.write(char);
		await this.waitFor((s) => s.includes(shown));
	}

	/** Resizes the pty and the emulator together. */
	resize(cols: number, rows: number): void {
		this.#terminal.resize(cols, rows);
		this.#process.resize(cols, rows);
	}

	/** Resolves with the exit code. */
	exited(): Promise<number> {
		return this.#exited;
	}

	/** Kills the program if it is still running. */
	kill(): void {
		try {
			this.#process.kill();
		} catch {
			// already gone
		}
	}

	/**
	 * Kills the program and waits until it is gone: it saves its session on the way out, so a test
	 * that removes its folders right after would race it. A program that ignores SIGHUP gets SIGKILL.
	 */
	async stop(): Promise<void> {
		this.kill();
		let timer: NodeJS.Timeout | undefined;
		const stubborn = new Promise<void>((resolvePromise) => {
			timer = setTimeout(() => {
				try {
					this.#process.kill("SIGKILL");
				} catch {
					// already gone
				}
				resolvePromise();
			}, 5000);
		});
		await Promise.race([this.#exited.then(() => undefined), stubborn]);
		clearTimeout(timer);
		await this.#exited;
	}
}
