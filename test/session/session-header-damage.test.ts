import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diagnoseSessionFile } from "../../source/doctor/diagnose.js";
import { repairSessionFile } from "../../source/doctor/repair.js";
import { listIndexedSessions } from "../../source/index/indexed-sessions.js";
import { getRecentSessions, listSessionsIn } from "../../source/session/session-discovery.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { getDefaultSessionDir } from "../../source/session/session-paths.js";
import { FileSessionStorage } from "../../source/session/session-storage.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { runCliAsync } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const CWD = "/work/header-damage";

/** A v3 tree: u1 → a1 → { u2 (abandoned), u3 → a3 (the leaf) }. */
function treeLines(): string[] {
	const entry = (id: string, parentId: string | null, message: unknown) =>
		JSON.stringify({ type: "message", id, parentId, timestamp: "2026-11-01T10:00:00.000Z", message });
	return [
		entry("u1000001", null, userMessage("first question")),
		entry("a1000001", "u1000001", assistantMessage("first answer")),
		entry("u2000002", "a1000001", userMessage("abandoned branch question")),
		entry("u3000003", "a1000001", userMessage("kept branch question")),
		entry("a3000003", "u3000003", assistantMessage("kept branch answer")),
	];
}

function headerWith(version: unknown | "absent"): string {
	const header: Record<string, unknown> = { type: "session" };
	if (version !== "absent") header.version = version;
	Object.assign(header, { id: "damaged-header-session", timestamp: "2026-11-01T10:00:00.000Z", cwd: CWD });
	return JSON.stringify(header);
}

function parentsOf(session: SessionManager): Record<string, string | null> {
	return Object.fromEntries(session.getEntries().map((entry) => [entry.id, entry.parentId]));
}

describe("a header with a malformed version in a file whose entries carry ids", () => {
	const temp = useTempAgentDir();

	for (const [name, version] of [
		['"3" (a string)', "3"],
		["null", null],
		["missing", "absent"],
	] as const) {
		it(`version ${name}: the tree is kept, the file is not rewritten, the session opens read-only`, async () => {
			const file = join(temp.root, "damaged.jsonl");
			const original = `${[headerWith(version), ...treeLines()].join("\n")}\n`;
			writeFileSync(file, original);

			const session = await SessionManager.open(file);
			expect(parentsOf(session)).toEqual({
				u1000001: null,
				a1000001: "u1000001",
				u2000002: "a1000001",
				u3000003: "a1000001",
				a3000003: "u3000003",
			});
			const texts = session.buildSessionContext().messages.map((m) => JSON.stringify(m));
			expect(texts.some((t) => t.includes("abandoned branch question"))).toBe(false);
			expect(texts.some((t) => t.includes("kept branch answer"))).toBe(true);
			expect(session.isReadOnly()).toBe(true);
			expect(session.getReadOnlyReason()).toBe("damaged-header");
			expect(session.getLoadReport().headerProblem).toMatch(/^the header's version is .+, not a number$/);
			await session.close();

			expect(readFileSync(file, "utf8")).toBe(original);
			expect(readdirSync(temp.root).filter((name) => name.includes(".bak"))).toEqual([]);
		});
	}

	it("xcsh -p --resume refuses to add to it and says how to repair it; the file is untouched", async () => {
		const file = join(temp.root, "damaged.jsonl");
		// This project's session (another project's would first be offered as a fork).
		const header = headerWith(null).replace(JSON.stringify(CWD), JSON.stringify(temp.root));
		const original = `${[header, ...treeLines()].join("\n")}\n`;
		writeFileSync(file, original);
		const result = await runCliAsync(["-p", "--resume", file, "hi"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(result.status).toBe(1);
		expect(result.stderr).toBe(
			`xcsh: This session's header is damaged, so it is open read-only: run xcsh doctor --fix ${file}, or /fork to continue in a copy\n`,
		);
		expect(readFileSync(file, "utf8")).toBe(original);
	});

	it("xcsh sessions info names the damage instead of calling it v1", async () => {
		const file = join(temp.root, "damaged.jsonl");
		writeFileSync(file, `${[headerWith(null), ...treeLines()].join("\n")}\n`);
		const text = await runCliAsync(["sessions", "info", file], { agentDir: temp.agentDir, cwd: temp.root });
		expect(text.stdout).toMatch(
			/Format +damaged: the header's version is null, not a number \(opens read-only; xcsh doctor --fix repairs it\)\n/,
		);
		const json = await runCliAsync(["sessions", "info", file, "--json"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(JSON.parse(json.stdout)).toMatchObject({
			version: null,
			headerProblem: "the header's version is null, not a number",
			context: { messages: 4 },
		});
	});

	it("/fork continues in a copy whose header is sound: the copy opens writable with the same tree", async () => {
		const file = join(temp.root, "damaged.jsonl");
		writeFileSync(file, `${[headerWith("3"), ...treeLines()].join("\n")}\n`);
		const session = await SessionManager.open(file);
		const forked = await session.fork();
		expect(session.isReadOnly()).toBe(false);
		await session.close();
		const [header] = readFileSync(forked!.sessionFile, "utf8").split("\n");
		expect(JSON.parse(header!)).toMatchObject({ version: 3, parentSession: "damaged-header-session" });
		const copy = await SessionManager.open(forked!.sessionFile);
		expect(copy.isReadOnly()).toBe(false);
		expect(parentsOf(copy).u3000003).toBe("a1000001");
		await copy.close();
	});

	it("a v1 file (no ids) without a version is still migrated to a linear chain", async () => {
		const file = join(temp.root, "v1.jsonl");
		const v1 = [
			headerWith("absent"),
			JSON.stringify({ type: "message", timestamp: "t1", message: userMessage("one") }),
			JSON.stringify({ type: "message", timestamp: "t2", message: assistantMessage("two") }),
		];
		writeFileSync(file, `${v1.join("\n")}\n`);
		const session = await SessionManager.open(file);
		const [first, second] = session.getEntries();
		expect(second?.parentId).toBe(first?.id);
		expect(session.isReadOnly()).toBe(false);
		expect(session.getLoadReport().migratedFrom).toBe(1);
		await session.close();
	});

	it("doctor reports the damaged header and --fix repairs it, keeping every entry and the tree", async () => {
		const file = join(temp.root, "damaged.jsonl");
		const body = treeLines();
		writeFileSync(file, `${[headerWith("3"), ...body].join("\n")}\n`);

		const diagnosis = await diagnoseSessionFile(file);
		expect(diagnosis.ok).toBe(false);
		expect(diagnosis.findings).toContainEqual({ kind: "malformed-version", value: '"3"' });
		expect(diagnosis.findings.some((f) => f.kind === "needs-migration")).toBe(false);

		const result = await repairSessionFile(file);
		expect(result.outcome.kind).toBe("rewritten");
		const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
		expect(JSON.parse(lines[0]!)).toMatchObject({ type: "session", version: 3, id: "damaged-header-session" });
		expect(lines.slice(1)).toEqual(body);
		expect((await diagnoseSessionFile(file)).ok).toBe(true);

		const session = await SessionManager.open(file);
		expect(session.isReadOnly()).toBe(false);
		expect(parentsOf(session).u3000003).toBe("a1000001");
		await session.close();
	});
});

describe("a UTF-8 BOM or blank lines before the header", () => {
	useTempAgentDir();

	function writeProjectSession(name: string, prefix: string): string {
		const dir = getDefaultSessionDir(CWD);
		mkdirSync(dir, { recursive: true });
		const file = join(dir, name);
		writeFileSync(file, `${prefix}${normalised}`);
		return file;
	}
	const normalised = `${[headerWith(3), ...treeLines()].join("\n")}\n`;

	for (const [name, prefix] of [
		["a BOM", "\uFEFF"],
		["blank lines", "\n  \n\n"],
		["a BOM and blank lines", "\uFEFF\n\n"],
	] as const) {
		it(`${name}: the session opens and every listing sees it`, async () => {
			const file = writeProjectSession("2026-11-01T10-00-00-000Z_damaged-header-session.jsonl", prefix);
			const session = await SessionManager.open(file);
			expect(session.getSessionId()).toBe("damaged-header-session");
			expect(session.getEntries()).toHaveLength(5);
			expect(session.isReadOnly()).toBe(false);
			await session.close();

			const storage = new FileSessionStorage();
			const dir = getDefaultSessionDir(CWD);
			expect((await getRecentSessions(dir, 10, storage)).map((s) => s.id)).toEqual(["damaged-header-session"]);
			const [listed] = await listSessionsIn([dir], storage);
			expect(listed).toMatchObject({ id: "damaged-header-session", messageCount: 5 });
			expect(listed?.firstMessage).toBe("first question");
			const indexed = await listIndexedSessions({ dir });
			expect(indexed?.map((s) => s.id)).toEqual(["damaged-header-session"]);
			expect(indexed?.[0]?.firstMessage).toBe("first question");
		});

		it(`${name}: doctor notes it and --fix normalises the file`, async () => {
			const file = writeProjectSession("s.jsonl", prefix);
			const diagnosis = await diagnoseSessionFile(file);
			expect(diagnosis.header.valid).toBe(true);
			expect(diagnosis.findings.some((f) => f.kind === "header-prefix")).toBe(true);
			const result = await repairSessionFile(file);
			expect(result.outcome.kind).toBe("rewritten");
			expect(readFileSync(file, "utf8")).toBe(normalised);
			expect(existsSync(`${file}.bak`)).toBe(true);
			expect((await diagnoseSessionFile(file)).findings).toEqual([]);
		});
	}
});
