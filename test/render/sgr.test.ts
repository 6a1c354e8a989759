import { describe, expect, it } from "vitest";
import { colourEnabled, filterColourOutput } from "../../source/render/colour.js";
import { selfContainedLines, stripColour } from "../../source/render/sgr.js";

const ESC = String.fromCharCode(27);

describe("SGR bookkeeping", () => {
	it("NO_COLOR counts when set and not empty, whatever its value", () => {
		expect(colourEnabled({})).toBe(true);
		expect(colourEnabled({ NO_COLOR: "" })).toBe(true);
		expect(colourEnabled({ NO_COLOR: "1" })).toBe(false);
		expect(colourEnabled({ NO_COLOR: "0", FORCE_COLOR: "3" })).toBe(false);
	});

	it("takes colour attributes out and keeps the others, dropping sequences left empty", () => {
		expect(stripColour(`${ESC}[1;31mx${ESC}[39;22m`)).toBe(`${ESC}[1mx${ESC}[22m`);
		expect(stripColour(`${ESC}[38;5;208my${ESC}[39m`)).toBe("y");
		expect(stripColour(`${ESC}[48;2;1;2;3;7mz${ESC}[27m`)).toBe(`${ESC}[7mz${ESC}[27m`);
		expect(stripColour(`${ESC}[2K${ESC}[1Aplain`)).toBe(`${ESC}[2K${ESC}[1Aplain`);
	});

	it("closes styles at a line's end and reopens them on the next line", () => {
		const lines = selfContainedLines([`${ESC}[1m${ESC}[33mone`, "two", `three${ESC}[39m${ESC}[22m`, "four"]);
		expect(lines[0]).toBe(`${ESC}[1m${ESC}[33mone${ESC}[22;39m`);
		expect(lines[1]).toBe(`${ESC}[1;33mtwo${ESC}[22;39m`);
		expect(lines[2]).toBe(`${ESC}[1;33mthree${ESC}[39m${ESC}[22m`);
		expect(lines[3]).toBe("four");
	});

	it("under NO_COLOR, filters what is written to a stream, and gives write back", () => {
		const written: string[] = [];
		const stream = { write: (chunk: string) => written.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
		const restore = filterColourOutput(stream, { NO_COLOR: "1" });
		stream.write(`${ESC}[36m╭─╮${ESC}[39m ${ESC}[7mE${ESC}[27m`);
		restore();
		stream.write(`${ESC}[36mafter${ESC}[39m`);
		expect(written).toEqual([`╭─╮ ${ESC}[7mE${ESC}[27m`, `${ESC}[36mafter${ESC}[39m`]);
		expect(filterColourOutput(stream, {})).toBeTypeOf("function");
	});
});
