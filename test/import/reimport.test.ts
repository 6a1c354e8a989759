import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importFile } from "../../source/import/import-run.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, importAndOpen, transcript, unpairedResults } from "./import-helpers.js";

const options = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

function lines(name: string): string[] {
	return readFileSync(fixture(name), "utf8")
		.split("\n")
		.filter((line) => line !== "");
}

describe("importing again", () => {
	const temp = useTempAgentDir();

	it.each([
		"claude-code-02-tool-heavy.jsonl",
		"codex-01-cli-0.58-shell-reasoning.jsonl",
		"gemini-01-jsonl-2026-04-toolcalls-info.jsonl",
		"pi-02-v3-small-fixture-provider.jsonl",
	])("%s: a second import adds nothing and leaves the file as it was", async (name) => {
		const first = await importFile(fixture(name), options);
		expect(first.status).toBe("imported");
		if (first.status !== "imported") return;
		const before = readFileSync(first.sessionFile, "utf8");
		const again = await importFile(fixture(name), options);
		expect(again).toMatchObject({ status: "unchanged", sessionFile: first.sessionFile, entries: 0 });
		expect(readFileSync(first.sessionFile, "utf8")).toBe(before);
		expect(await SessionManager.list("/home/marco/projects/spotter")).toHaveLength(name.startsWith("claude") ? 1 : 0);
	});

	it.each([
		// cut before a user prompt, so the part already imported does not change
		{ name: "claude-code-02-tool-heavy.jsonl", cut: (l: string) => l.includes('"content":"now check the logs') },
		{ name: "codex-01-cli-0.58-shell-reasoning.jsonl", cut: (l: string) => l.includes('"type":"turn_context"') },
		{ name: "pi-01-v1-large-session-compaction-fixture.jsonl", cut: (l: string) => l.includes('"role":"user"') },
	])("$name: a source that grew is appended to, and reads like a fresh import of the whole", async ({ name, cut }) => {
		const all = lines(name);
		const cuts = all.map((line, i) => (i > all.length / 2 && cut(line) ? i : -1)).filter((i) => i > 0);
		const at = cuts[0] ?? Math.floor(all.length / 2);
		const source = join(temp.root, name);
		writeFileSync(source, `${all.slice(0, at).join("\n")}\n`);
		const first = await importFile(source, options);
		expect(first.status).toBe("imported");
		writeFileSync(source, `${all.join("\n")}\n`);
		const grown = await importAndOpen(source);
		expect(grown.result.status).toBe("appended");
		expect(grown.result.sessionFile).toBe(first.status === "imported" ? first.sessionFile : "");
		expect(grown.result.entries).toBeGreaterThan(0);
		const whole = await importAndOpen(fixture(name));
		expect(transcript(grown.context)).toEqual(transcript(whole.context));
		expect(unpairedResults(grown.context).filter((id) => id.startsWith("result"))).toEqual([]);
	});

	it("a Gemini .json chat that grew (rewritten whole) is appended to", async () => {
		const chat = JSON.parse(readFileSync(fixture("gemini-02-json-2026-03-toolcalls.json"), "utf8"));
		const source = join(temp.root, "session-2026.json");
		writeFileSync(source, JSON.stringify({ ...chat, messages: chat.messages.slice(0, 2) }, null, 2));
		expect((await importFile(source, options)).status).toBe("imported");
		writeFileSync(source, JSON.stringify(chat, null, 2));
		const grown = await importAndOpen(source);
		expect(grown.result.status).toBe("appended");
		expect(transcript(grown.context)).toEqual(
			transcript((await importAndOpen(fixture("gemini-02-json-2026-03-toolcalls.json"))).context),
		);
	});

	it("a source that changed what was imported becomes a new session with a note", async () => {
		const all = lines("claude-code-01-short-thinking-tools.jsonl");
		const source = join(temp.root, "changed.jsonl");
		writeFileSync(source, `${all.join("\n")}\n`);
		const first = await importFile(source, options);
		writeFileSync(source, `${all.join("\n").replace("mix phx.server doesnt seem to start", "mix phx.server fails")}\n`);
		const second = await importAndOpen(source);
		expect(second.result.status).toBe("reimported");
		expect(second.result.sessionFile).not.toBe(first.status === "imported" ? first.sessionFile : "");
		expect(second.result.previousSessionFile).toBe(first.status === "imported" ? first.sessionFile : "");
		const provenance = second.entries[0] as { data: { note: string } };
		expect(provenance.data.note).toMatch(
			/^The source changed since it was imported into .*; imported again as a new session\.$/,
		);
		expect(transcript(second.context)[0]).toBe("user:mix phx.server fails");
	});

	it("never writes to the source, and dates the session file at the source's last activity", async () => {
		const path = fixture("codex-05-vscode-0.39-patch-apply.jsonl");
		const before = statSync(path).mtimeMs;
		const bytes = readFileSync(path);
		const result = await importFile(path, options);
		expect(readFileSync(path).equals(bytes)).toBe(true);
		expect(statSync(path).mtimeMs).toBe(before);
		if (result.status !== "imported") throw new Error(result.status);
		expect(statSync(result.sessionFile).mtime.getUTCFullYear()).toBe(2025);
		const header = JSON.parse(readFileSync(result.sessionFile, "utf8").split("\n")[0]!);
		expect(header.timestamp).toBe("2025-09-19T09:02:12.446Z");
	});
});
