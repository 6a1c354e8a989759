import { describe, expect, it } from "vitest";
import { formatTable } from "../../source/cli/format.js";
import { clip } from "../../source/render/clip.js";
import { safeDeep, safeJson, safeLine, safeText } from "../../source/render/safe-text.js";

const ESC = "\u001b";

describe("safeText", () => {
	it("makes C0 controls visible as control pictures, keeping tab and newline", () => {
		expect(safeText(`${ESC}]0;PWNED\u0007${ESC}[2J`)).toBe("␛]0;PWNED␇␛[2J");
		expect(safeText("a\tb\nc")).toBe("a\tb\nc");
		expect(safeText("\u0000\u0008\u000b\u000c\u001f")).toBe("␀␈␋␌␟");
	});

	it("turns CRLF into LF and shows a lone CR, which would overwrite the line", () => {
		expect(safeText("one\r\ntwo\rthree")).toBe("one\ntwo␍three");
	});

	it("shows DEL as ␡ and C1 controls as \\x escapes", () => {
		expect(safeText("\u007f\u0080\u009b31m\u009d")).toBe("␡\\x80\\x9b31m\\x9d");
	});

	it("leaves ordinary text, wide characters and emoji alone (the same string)", () => {
		const text = "héllo 世界 🎉 ‹›";
		expect(safeText(text)).toBe(text);
	});
});

describe("safeLine", () => {
	it("turns tabs and line breaks into spaces and shows the other controls", () => {
		expect(safeLine(`a\tb\r\nc\nd${ESC}[2J`)).toBe("a b c d␛[2J");
	});
});

describe("safeDeep", () => {
	it("sanitises every string of a message and returns untouched parts as they were", () => {
		const clean = { type: "image", data: "AAAA" };
		const message = {
			role: "toolResult",
			content: [{ type: "text", text: `${ESC}]52;c;eA==\u0007` }, clean],
			details: { args: { command: `echo ${ESC}[2J` } },
			timestamp: 1,
		};
		const safe = safeDeep(message);
		expect(safe).toEqual({
			role: "toolResult",
			content: [{ type: "text", text: "␛]52;c;eA==␇" }, clean],
			details: { args: { command: "echo ␛[2J" } },
			timestamp: 1,
		});
		expect(safe.content[1]).toBe(clean);
		const untouched = { role: "user", content: "fine" };
		expect(safeDeep(untouched)).toBe(untouched);
	});
});

describe("safeJson", () => {
	it("escapes DEL and C1 as \\u escapes and parses back to the same value", () => {
		const value = { title: `a${ESC}b\u009bc\u007f` };
		const json = safeJson(value);
		expect(json).toContain("\\u001b");
		expect(json).toContain("\\u009b");
		expect(json).toContain("\\u007f");
		expect(/[\u007f-\u009f]/.test(json)).toBe(false);
		expect(JSON.parse(json)).toEqual(value);
	});
});

describe("clip and formatTable", () => {
	it("clip counts wide characters as two columns", () => {
		expect(clip("世界世界世界", 5)).toBe("世界…");
		expect(clip("abcdef", 4)).toBe("abc…");
		expect(clip("abc", 4)).toBe("abc");
	});

	it("cuts cells to the cap and makes them one safe line", () => {
		const table = formatTable(
			[
				["id", `${"t".repeat(500)}`],
				["x", `two\nlines${ESC}[2J`],
			],
			{ maxCell: 20 },
		);
		expect(table).toBe(`id  ${"t".repeat(19)}…\nx   two lines␛[2J`);
	});

	it("fits the terminal width by narrowing the widest column, never a kept one", () => {
		const rows = [["0123456789abcdef", "x".repeat(100), "y".repeat(60)]];
		const table = formatTable(rows, { width: 80, keep: [0] });
		expect(table.length).toBe(80);
		expect(table.startsWith("0123456789abcdef  ")).toBe(true);
		expect(table).toContain("…");
	});

	it("pads by display width so columns after wide characters line up", () => {
		const table = formatTable([
			["世界", "a"],
			["ab", "b"],
		]);
		expect(table).toBe("世界  a\nab    b");
	});
});
