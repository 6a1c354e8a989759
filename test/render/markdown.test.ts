import stringWidth from "string-width";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown, renderMarkdownLines, renderStreamingMarkdown } from "../../source/render/markdown.js";
import { plain } from "../helpers/ink.js";

const ESC = String.fromCharCode(27);
const SGR = new RegExp(`${ESC}\\[([0-9;]*)m`, "g");

/** Every SGR attribute in the text that sets a colour (30–49, 90–107). */
function colourAttributes(text: string): string[] {
	return [...text.matchAll(SGR)]
		.flatMap((match) => (match[1] ?? "").split(";"))
		.filter((code) => {
			const n = Number(code);
			return code !== "" && ((n >= 30 && n <= 49) || (n >= 90 && n <= 107));
		});
}

const DOC = `# The plan

Some **bold** words and \`code\` in a paragraph that is long enough to wrap at forty columns, twice over.

## Steps

1. First item, which is also quite long and has to wrap onto a second line.
2. Second item
   - nested point

\`\`\`ts
// a comment
const answer = 42;

function twice(n: number) {
  return n * 2;
}
\`\`\`

| Name | Size | Note |
| --- | ---: | :---: |
| alpha | 1 | short |
| beta-gamma | 1234 | a longer note |

> A quote that is long enough to wrap inside the quote bar at forty columns.

Last words.
`;

describe("markdown for the terminal", () => {
	beforeAll(loadMarkdown);

	it("draws headings without their # marks", () => {
		const lines = renderMarkdownLines("# Title\n\n## Sub title\n\n### Third", { width: 80 }).map(plain);
		expect(lines).toEqual(["Title", "", "Sub title", "", "Third"]);
	});

	it("highlights code blocks and leaves their fences out", () => {
		const out = renderMarkdownLines("```ts\nconst x = 1;\n```", { width: 80, colour: true });
		expect(out.map(plain)).toEqual(["  const x = 1;"]);
		expect(out.join("\n")).not.toContain("```");
		expect(colourAttributes(out.join("\n")).length).toBeGreaterThan(0);
	});

	it("aligns table columns, rules the header and honours column alignment", () => {
		const lines = renderMarkdownLines(
			"| Name | Size |\n| --- | ---: |\n| alpha | 1 |\n| beta-gamma | 1234 |\n| 日本語 | 22 |",
			{ width: 80 },
		).map(plain);
		expect(lines).toEqual([
			"Name       │ Size",
			"───────────┼─────",
			"alpha      │    1",
			"beta-gamma │ 1234",
			"日本語     │   22",
		]);
	});

	it("wraps a table wider than the screen inside its columns", () => {
		const wide = `| a | b |\n| - | - |\n| ${"word ".repeat(12)} | ${"other ".repeat(10)} |`;
		const lines = renderMarkdownLines(wide, { width: 40 }).map(plain);
		for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
		// every row of the table keeps the separator in the same column
		const bars = lines.filter((l) => l.includes("│")).map((l) => stringWidth(l.slice(0, l.indexOf("│"))));
		expect(new Set(bars).size).toBe(1);
		expect(lines.length).toBeGreaterThan(4);
	});

	it("wraps prose to the width with no wrapped line starting with a space, lists with a hanging indent", () => {
		const lines = renderMarkdownLines(DOC, { width: 40 }).map(plain);
		for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
		const paragraph = lines.slice(lines.indexOf("The plan") + 2, lines.indexOf("Steps") - 1);
		expect(paragraph.length).toBeGreaterThan(1);
		for (const line of paragraph) expect(line).not.toMatch(/^\s/);
		const item = lines.findIndex((line) => line.startsWith("1. First item"));
		expect(lines[item + 1]).toMatch(/^ {3}\S/);
		expect(lines).toContain("   • nested point");
		const quote = lines.filter((line) => line.startsWith("│ "));
		expect(quote.length).toBeGreaterThan(1);
		for (const line of quote) expect(line.slice(2)).not.toMatch(/^\s/);
	});

	it("keeps code indentation and hard-wraps long code lines", () => {
		const lines = renderMarkdownLines(`\`\`\`\n  indented\n${"x".repeat(50)}\n\`\`\``, { width: 30 }).map(plain);
		expect(lines[0]).toBe("    indented");
		expect(lines.slice(1)).toEqual([`  ${"x".repeat(28)}`, `  ${"x".repeat(22)}`]);
		// cut by column, not at the spaces inside the code
		const spaced = renderMarkdownLines(`\`\`\`\n${"ab ".repeat(15)}\n\`\`\``, { width: 22 }).map(plain);
		expect(spaced).toEqual([
			`  ${"ab ".repeat(15).slice(0, 20)}`,
			`  ${"ab ".repeat(15).slice(20, 40)}`,
			`  ${"ab ".repeat(15).slice(40)}`,
		]);
	});

	it("while streaming, the lines it calls stable are the final lines, and the end is the final rendering", () => {
		for (const [width, step] of [
			[40, 1],
			[100, 5],
		] as const) {
			const final = renderMarkdownLines(DOC, { width, colour: true });
			let lastStable = 0;
			for (let end = 1; end <= DOC.length; end += step) {
				const streamed = renderStreamingMarkdown(DOC.slice(0, end), { width, colour: true });
				expect(streamed.lines.slice(0, streamed.stable)).toEqual(final.slice(0, streamed.stable));
				expect(streamed.stable).toBeGreaterThanOrEqual(lastStable);
				lastStable = streamed.stable;
			}
			expect(lastStable).toBeGreaterThan(final.length / 2);
			expect(renderStreamingMarkdown(DOC, { width, colour: true }).lines).toEqual(final);
		}
	});

	it("renders the block still arriving too: a half-streamed heading has no #, an open code fence no ```", () => {
		const heading = renderStreamingMarkdown("Intro.\n\n## Half a head", { width: 80 });
		expect(heading.lines.map(plain)).toEqual(["Intro.", "", "Half a head"]);
		expect(heading.stable).toBe(1);
		const code = renderStreamingMarkdown("```py\nprint(1)\n", { width: 80 });
		expect(code.lines.map(plain)).toEqual(["  print(1)"]);
	});

	it("every line stands alone: styles open at a line's end are closed there and reopened on the next", () => {
		const lines = renderMarkdownLines("```js\n/* one\n   two */\nx\n```\n\n**bold across\na break**", {
			width: 80,
			colour: true,
		});
		for (const line of lines) {
			const codes = [...line.matchAll(SGR)].map((m) => m[1]);
			// whatever a line opens it closes: it ends in a sequence that turns its styles off
			if (codes.length > 0) expect(line.endsWith("m")).toBe(true);
		}
		const second = lines.find((line) => plain(line).includes("two */"));
		expect(second?.startsWith(ESC)).toBe(true);
		const broken = lines.find((line) => plain(line) === "a break");
		expect(broken).toMatch(new RegExp(`^${ESC}\\[1m`));
	});

	it("without colour (NO_COLOR), keeps bold and emphasis but no colour at all, code unhighlighted", () => {
		const out = renderMarkdownLines(DOC, { width: 80, colour: false }).join("\n");
		expect(colourAttributes(out)).toEqual([]);
		expect(out).toContain(`${ESC}[1m`);
		expect(plain(out)).toContain("  const answer = 42;");
	});

	it("makes controls in the text visible before styling it", () => {
		const out = renderMarkdownLines(`# Title ${ESC}]0;pwned\u0007\n\nbody ${ESC}[2J`, { width: 80, colour: false });
		expect(plain(out.join("\n"))).toContain("Title ␛]0;pwned␇");
		expect(out.join("\n")).not.toContain(`${ESC}[2J`);
	});
});
