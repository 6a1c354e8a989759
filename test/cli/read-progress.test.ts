import { describe, expect, it } from "vitest";
import {
	describeProgress,
	type ProgressTerminal,
	ReadCancelledError,
	withReadProgress,
} from "../../source/cli/read-progress.js";

function fakeTerminal(interactive = true) {
	const written: string[] = [];
	let onKey: ((bytes: Buffer) => void) | undefined;
	let listening = false;
	const terminal: ProgressTerminal = {
		interactive,
		write: (text) => written.push(text),
		listenForKeys(listener) {
			onKey = listener;
			listening = true;
			return () => {
				listening = false;
			};
		},
	};
	return { terminal, written, press: (key: string) => onKey?.(Buffer.from(key)), listening: () => listening };
}

describe("the progress of reading a big session", () => {
	it("says how much was read, in MB or GB", () => {
		expect(describeProgress(120e6, 640e6)).toBe("120 of 640 MB");
		expect(describeProgress(1.2e9, 3.4e9)).toBe("1.2 of 3.4 GB");
	});

	it("draws a line in place once the read lasts, and clears it at the end", async () => {
		const term = fakeTerminal();
		let clock = 0;
		const result = await withReadProgress(
			"big.jsonl",
			async ({ onProgress }) => {
				onProgress?.(10e6, 100e6); // too soon: nothing drawn
				clock = 400;
				onProgress?.(40e6, 100e6);
				clock = 450;
				onProgress?.(45e6, 100e6); // too soon after the last redraw
				clock = 600;
				onProgress?.(80e6, 100e6);
				return "opened";
			},
			term.terminal,
			() => clock,
		);
		expect(result).toBe("opened");
		expect(term.written).toEqual([
			"\r\u001b[2KReading session… 40 of 100 MB · Esc cancels",
			"\r\u001b[2KReading session… 80 of 100 MB · Esc cancels",
			"\r\u001b[2K",
		]);
		expect(term.listening()).toBe(false);
	});

	it("stops the read when Escape is pressed", async () => {
		const term = fakeTerminal();
		let clock = 0;
		const reading = withReadProgress(
			"big.jsonl",
			async ({ onProgress, signal }) => {
				clock = 500;
				onProgress?.(1e9, 5e9);
				term.press("\u001b");
				if (signal?.aborted) throw signal.reason;
				return "opened";
			},
			term.terminal,
			() => clock,
		);
		await expect(reading).rejects.toThrow(new ReadCancelledError("big.jsonl"));
		await expect(reading).rejects.toThrow("Stopped reading big.jsonl: nothing was opened or changed");
		expect(term.written.at(-1)).toBe("\r\u001b[2K");
	});

	it("draws nothing where the line cannot be redrawn (not a terminal)", async () => {
		const term = fakeTerminal(false);
		let clock = 0;
		await withReadProgress(
			"big.jsonl",
			async ({ onProgress }) => {
				clock = 5000;
				onProgress?.(1e6, 9e6);
			},
			term.terminal,
			() => clock,
		);
		expect(term.written).toEqual([]);
	});
});
