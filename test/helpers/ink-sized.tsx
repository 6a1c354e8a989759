import { EventEmitter } from "node:events";
import { render as inkRender } from "ink";
import type { render } from "ink-testing-library";
import type { ReactElement } from "react";
import stringWidth from "string-width";
import { plain, waitForFrame } from "./ink.js";

/** An Ink stdout of a fixed size that keeps its frames, like ink-testing-library's (which is always 100 wide). */
class SizedStdout extends EventEmitter {
	readonly frames: string[] = [];
	#last: string | undefined;
	constructor(
		public columns: number,
		public rows: number,
	) {
		super();
	}
	write = (frame: string): void => {
		this.frames.push(frame);
		this.#last = frame;
	};
	lastFrame = (): string | undefined => this.#last;
}

class TestStdin extends EventEmitter {
	isTTY = true;
	#data: string | null = null;
	write = (data: string): void => {
		this.#data = data;
		this.emit("readable");
		this.emit("data", data);
	};
	read = (): string | null => {
		const data = this.#data;
		this.#data = null;
		return data;
	};
	setEncoding(): void {}
	setRawMode(): void {}
	resume(): void {}
	pause(): void {}
	ref(): void {}
	unref(): void {}
}

/** A rendered element on a `columns`×`rows` terminal; `resize` changes the size and tells Ink. */
export type SizedInstance = ReturnType<typeof render> & { resize(columns: number, rows: number): void };

/** Renders `element` on a terminal of the given size (debug mode: every frame is kept whole). */
export function renderSized(element: ReactElement, columns: number, rows: number): SizedInstance {
	const stdout = new SizedStdout(columns, rows);
	const stderr = new SizedStdout(columns, rows);
	const stdin = new TestStdin();
	const instance = inkRender(element, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stderr: stderr as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	return {
		rerender: instance.rerender,
		unmount: instance.unmount,
		cleanup: instance.cleanup,
		stdout,
		stderr,
		stdin,
		frames: stdout.frames,
		lastFrame: stdout.lastFrame,
		resize(nextColumns: number, nextRows: number) {
			stdout.columns = nextColumns;
			stdout.rows = nextRows;
			stdout.emit("resize");
		},
	} as unknown as SizedInstance;
}

/** Renders on a sized terminal and waits for the first frame that matches. */
export async function renderSizedAndWait(
	element: ReactElement,
	columns: number,
	rows: number,
	predicate: (frame: string) => boolean,
): Promise<SizedInstance> {
	const instance = renderSized(element, columns, rows);
	await waitForFrame(instance, predicate);
	return instance;
}

/** The lines of a frame, ANSI removed, trailing blank lines dropped (Ink pads nothing after the last). */
export function frameLines(frame: string | undefined): string[] {
	const lines = plain(frame).split("\n");
	while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
	return lines;
}

/** Why a frame does not fit `columns`×`rows` (too many lines, a line too wide), or undefined when it fits. */
export function misfit(frame: string | undefined, columns: number, rows: number): string | undefined {
	const lines = plain(frame).split("\n");
	if (lines.length > rows) return `${lines.length} lines on a ${rows}-row terminal:\n${plain(frame)}`;
	const wide = lines.find((line) => stringWidth(line) > columns);
	return wide === undefined
		? undefined
		: `a line of ${stringWidth(wide)} columns on a ${columns}-column terminal: ${wide}`;
}
