import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeScope, entriesInScope } from "../../source/export/export-scope.js";
import { exportSessionToHtml } from "../../source/export/html/index.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("export scope", () => {
	const temp = useTempAgentDir();

	async function branched(): Promise<{ session: SessionManager; abandoned: string; kept: string }> {
		const session = await SessionManager.create(temp.root);
		const root = session.appendMessage(userMessage("root question"));
		const abandoned = session.appendMessage(assistantMessage("abandoned attempt"));
		session.branch(root);
		const kept = session.appendMessage(assistantMessage("kept answer"));
		await session.flush();
		return { session, abandoned, kept };
	}

	it("tree, active branch and one entry's path", async () => {
		const { session, abandoned, kept } = await branched();
		expect(entriesInScope(session, { kind: "tree" }).entries).toHaveLength(3);
		const branch = entriesInScope(session, { kind: "branch" });
		expect(branch.entries.map((e) => e.id)).not.toContain(abandoned);
		expect(branch.leafId).toBe(kept);
		expect(entriesInScope(session, { kind: "entry", entryId: abandoned }).leafId).toBe(abandoned);
		expect(() => entriesInScope(session, { kind: "entry", entryId: "00000000" })).toThrow("Entry 00000000 not found");
		await session.close();
	});

	it("an exported branch carries nothing from abandoned attempts", async () => {
		const { session } = await branched();
		let count = 0;
		const path = await exportSessionToHtml(session, undefined, {
			outputPath: join(temp.root, "branch.html"),
			scope: { kind: "branch" },
			onScope: (n) => {
				count = n;
			},
		});
		const html = readFileSync(path, "utf8");
		expect(html).toContain("kept answer");
		expect(html).not.toContain("abandoned attempt");
		expect(count).toBe(2);
		await session.close();
	});

	it("--collapse-tools keeps only the first lines of each tool result", async () => {
		const session = await SessionManager.create(temp.root);
		session.appendMessage(userMessage("list"));
		session.appendMessage(assistantMessage("running"));
		session.appendMessage(toolResultMessage(Array.from({ length: 50 }, (_, i) => `output line ${i + 1}`).join("\n")));
		await session.flush();
		const path = await exportSessionToHtml(session, undefined, {
			outputPath: join(temp.root, "c.html"),
			collapseTools: true,
		});
		const html = readFileSync(path, "utf8");
		expect(html).toContain("output line 5");
		expect(html).not.toContain("output line 40");
		expect(html).toContain("+45 lines (collapsed for the export)");
		await session.close();
	});

	it("describes the scope (its flags: test/commands/parse-args.test.ts)", () => {
		expect(describeScope({ kind: "tree" }, 3)).toBe("the whole tree (3 entries)");
		expect(describeScope({ kind: "branch" }, 1)).toBe("the active branch (1 entry)");
		expect(describeScope({ kind: "entry", entryId: "abcd1234" }, 2)).toBe("the path to abcd1234 (2 entries)");
	});
});
