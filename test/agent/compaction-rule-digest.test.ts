import { describe, expect, it } from "vitest";
import { collectFileOperations, FileOperationsTally } from "../../source/agent/compaction/file-operations.js";
import { RuleDigest } from "../../source/agent/compaction/rule-digest.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";

function toolCall(name: string, path: string) {
	const message = assistantMessage("");
	return { ...message, content: [{ type: "toolCall" as const, id: `${name}-${path}`, name, arguments: { path } }] };
}

describe("RuleDigest", () => {
	it("keeps the first and the latest prompts of a long stream, counts the rest and the tools", () => {
		const digest = new RuleDigest();
		for (let i = 0; i < 500; i++) {
			digest.add(userMessage(`question ${i}`));
			digest.add(toolCall("read", `f${i}.txt`));
			digest.add(assistantMessage(`answer ${i}`));
		}
		const text = digest.text("what came before");
		expect(text.startsWith("## Earlier summary\nwhat came before\n")).toBe(true);
		expect(text).toContain("## User prompts (500 prompts in 1,500 messages)");
		expect(text).toContain("1. question 0\n(… 479 more prompts …)\n481. question 480\n");
		expect(text).toContain("500. question 499");
		expect(text).not.toContain("question 479\n");
		expect(text).toContain("- read ×500");
		expect(text).toContain("- last reply: answer 499");
		expect(text).toContain("- continue from: question 499");
	});

	it("lists every prompt of a short stream once, in order", () => {
		const digest = new RuleDigest();
		for (const prompt of ["one", "two", "three"]) digest.add(userMessage(prompt));
		expect(digest.text()).toContain("## User prompts (3 prompts in 3 messages)\n1. one\n2. two\n3. three\n");
	});
});

describe("FileOperationsTally", () => {
	it("gives what collectFileOperations gives, one message at a time", () => {
		const messages = [toolCall("read", "a"), toolCall("edit", "a"), toolCall("read", "b"), toolCall("write", "c")];
		const tally = new FileOperationsTally({ readFiles: ["z"], modifiedFiles: [] });
		for (const message of messages) tally.add(message);
		expect(tally.result()).toEqual(collectFileOperations(messages, { readFiles: ["z"], modifiedFiles: [] }));
	});
});
