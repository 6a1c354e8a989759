import { describe, expect, it } from "vitest";
import {
	INITIAL_KEY_READER,
	type KeyEvent,
	type KeyReaderState,
	PASTE_END,
	PASTE_START,
	plainKey,
	readKeys,
	splitPlainRun,
} from "../../controllers/key-reader.js";
import type { KeyPress } from "../../controllers/keymap.js";

/** Feeds Ink-parsed events through one reader, with what Ink decodes for a lone plain character. */
function readAll(raws: readonly string[]): KeyEvent[] {
	let state: KeyReaderState = INITIAL_KEY_READER;
	const events: KeyEvent[] = [];
	for (const raw of raws) {
		const ink: { input: string; key: KeyPress } = raw.length === 1 ? plainKey(raw) : { input: raw, key: {} };
		const read = readKeys(state, raw, ink.input, ink.key);
		state = read.state;
		events.push(...read.events);
	}
	return events;
}

describe("splitPlainRun", () => {
	it("gives one key per grapheme and every control character on its own", () => {
		expect(splitPlainRun("abc\r")).toEqual(["a", "b", "c", "\r"]);
		expect(splitPlainRun("\x7f\x7f\x7f")).toEqual(["\x7f", "\x7f", "\x7f"]);
		expect(splitPlainRun("a\r\nb")).toEqual(["a", "\r", "\n", "b"]);
		// a family emoji and a flag are one key each, as typed
		expect(splitPlainRun("👨‍👩‍👧🇪🇸é")).toEqual(["👨‍👩‍👧", "🇪🇸", "é"]);
	});
});

describe("plainKey", () => {
	it("decodes Enter, Backspace, Tab and Ctrl letters like Ink", () => {
		expect(plainKey("\r")).toEqual({ input: "\r", key: { return: true } });
		expect(plainKey("\x7f")).toEqual({ input: "", key: { delete: true } });
		expect(plainKey("\b")).toEqual({ input: "", key: { backspace: true } });
		expect(plainKey("\t")).toEqual({ input: "", key: { tab: true } });
		expect(plainKey("\x15")).toEqual({ input: "u", key: { ctrl: true } });
		expect(plainKey("\n")).toEqual({ input: "\n", key: {} });
		expect(plainKey("A")).toEqual({ input: "A", key: { shift: true } });
		expect(plainKey("ñ")).toEqual({ input: "ñ", key: {} });
	});
});

describe("readKeys", () => {
	it("splits a run of typed text and Enter into keys, in order", () => {
		expect(readAll(["ls\r"])).toEqual([
			{ kind: "key", input: "l", key: {} },
			{ kind: "key", input: "s", key: {} },
			{ kind: "key", input: "\r", key: { return: true } },
		]);
	});

	it("passes a single key and an escape sequence through as Ink decoded them", () => {
		const up = { upArrow: true };
		expect(readKeys(INITIAL_KEY_READER, "\x1b[A", "", up).events).toEqual([{ kind: "key", input: "", key: up }]);
		const x = { shift: false };
		expect(readKeys(INITIAL_KEY_READER, "x", "x", x).events).toEqual([{ kind: "key", input: "x", key: x }]);
	});

	it("reads a bracketed paste as text with its line breaks, never as keys", () => {
		expect(readAll([PASTE_START, "one\rtwo\r\nthree\x7f", PASTE_END, "\r"])).toEqual([
			{ kind: "paste", text: "one\ntwo\nthree\x7f" },
			{ kind: "key", input: "\r", key: { return: true } },
		]);
	});

	it("keeps a CR LF split across two reads of a paste as one line break", () => {
		expect(readAll([PASTE_START, "a\r", "\nb", PASTE_END])).toEqual([
			{ kind: "paste", text: "a\n" },
			{ kind: "paste", text: "b" },
		]);
	});

	it("reads an escape sequence inside a paste as pasted text", () => {
		expect(readAll([PASTE_START, "\x1b[A", PASTE_END])).toEqual([{ kind: "paste", text: "\x1b[A" }]);
	});

	it("reads SGR mouse reports as the wheel (with any modifier) or as nothing, never as text", () => {
		const read = (raw: string) => readKeys(INITIAL_KEY_READER, raw, raw.slice(1), {}).events;
		expect(read("\x1b[<64;10;5M")).toEqual([{ kind: "wheel", direction: -1 }]);
		expect(read("\x1b[<65;1;1M")).toEqual([{ kind: "wheel", direction: 1 }]);
		expect(read("\x1b[<68;3;3M")).toEqual([{ kind: "wheel", direction: -1 }]);
		expect(read("\x1b[<0;12;7M")).toEqual([{ kind: "mouse" }]);
		expect(read("\x1b[<0;12;7m")).toEqual([{ kind: "mouse" }]);
	});
});
