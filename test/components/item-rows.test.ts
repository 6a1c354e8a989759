import { describe, expect, it } from "vitest";
import { oneRow } from "../../components/chat/item-rows.js";

describe("oneRow", () => {
	it("keeps a row that fits and cuts one that does not, with an ellipsis", () => {
		expect(oneRow("read src/a.ts", 20)).toBe("read src/a.ts");
		expect(oneRow("\tx", 20)).toBe("    x");
		expect(oneRow("abcdefghijklmnopqrstuvwxyz", 10)).toBe("abcdefghi…");
	});

	it("cuts a one-line output of a megabyte to its head (only the head can show)", () => {
		expect(oneRow("0123456789".repeat(100_000), 20)).toBe(`${`${"0123456789".repeat(2)}`.slice(0, 19)}…`);
		// Just over the head that is looked at, a line still gets its ellipsis.
		expect(oneRow("x".repeat(20 * 4 + 17), 20)).toBe(`${"x".repeat(19)}…`);
	});
});
