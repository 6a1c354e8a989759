import type { AgentMessage } from "@mariozechner/pi-agent-core";
import stringWidth from "string-width";
import { beforeAll, describe, expect, it } from "vitest";
import { pendingLines, runningLines } from "../../components/chat/live-lines.js";
import { loadMarkdown } from "../../source/render/markdown.js";
import { plain } from "../helpers/ink.js";

function assistant(content: unknown[]): AgentMessage {
	return { role: "assistant", content, stopReason: "stop" } as unknown as AgentMessage;
}

describe("the live region's rows", () => {
	beforeAll(loadMarkdown);

	it("renders the streaming answer as markdown, within the width", () => {
		const lines = pendingLines(
			assistant([{ type: "text", text: `## Plan\n\n${"word ".repeat(30)}\n\n\`\`\`sh\nls -la\n` }]),
			40,
			false,
		).map(plain);
		expect(lines[0]).toBe("Plan");
		expect(lines).toContain("  ls -la");
		expect(lines.join("\n")).not.toContain("```");
		for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
	});

	it("summarises thinking unless it is shown, and gives each tool call one header", () => {
		const message = assistant([
			{ type: "thinking", thinking: "step one\nstep two" },
			{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } },
		]);
		expect(pendingLines(message, 80, false).map(plain)).toEqual([
			"∴ thinking (2 lines, Ctrl+T to show)",
			"● $ npm test",
		]);
		expect(pendingLines(message, 80, true).map(plain)).toEqual([
			"∴ thinking (Ctrl+T to hide)",
			"step one",
			"step two",
			"● $ npm test",
		]);
	});

	it("a running tool shows its output's last rows under the header already drawn, not a second header", () => {
		const one = runningLines([{ id: "1", name: "bash", args: { command: "make" }, output: "a\nb\nc\nd\n" }], 80);
		expect(one.map(plain)).toEqual(["  ⎿ b", "    c", "    d"]);
		expect(runningLines([{ id: "1", name: "bash", args: { command: "make" }, output: "" }], 80).map(plain)).toEqual([
			"  ⎿ running…",
		]);
		const two = runningLines(
			[
				{ id: "1", name: "bash", args: { command: "make" }, output: "x" },
				{ id: "2", name: "read", args: { path: "a.ts" }, output: "" },
			],
			80,
		).map(plain);
		expect(two).toEqual(["  ⎿ $ make", "    x", "  ⎿ read a.ts", "    running…"]);
	});

	it("cuts a long output row to one row with an ellipsis", () => {
		const [row] = runningLines([{ id: "1", name: "bash", args: {}, output: "y".repeat(200) }], 30).map(plain);
		expect(stringWidth(row ?? "")).toBe(30);
		expect(row?.endsWith("…")).toBe(true);
	});
});
