import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { recordShare } from "../source/export/share-registry.js";
import { BlobStore } from "../source/session/blob-store.js";
import { HistoryStorage } from "../source/session/history-storage.js";
import { SessionManager } from "../source/session/session-manager.js";
import { getDefaultSessionDir } from "../source/session/session-paths.js";
import { moveSessionToTrash } from "../source/session/session-trash.js";
import { assistantMessage, userMessage } from "./helpers/messages.js";
import { runCli } from "./helpers/run-cli.js";
import { useTempAgentDir } from "./helpers/temp-agent-dir.js";

/** Every path under `root` whose mode lets anyone but the owner in, as "relative/path 644". */
function openToOthers(root: string): string[] {
	const found: string[] = [];
	const visit = (path: string) => {
		const stat = lstatSync(path);
		if (stat.isSymbolicLink()) return;
		if ((stat.mode & 0o077) !== 0) found.push(`${relative(root, path) || "."} ${(stat.mode & 0o777).toString(8)}`);
		if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
	};
	visit(root);
	return found;
}

function everyPath(root: string): string[] {
	const found: string[] = [];
	const visit = (path: string) => {
		found.push(relative(root, path));
		if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
	};
	visit(root);
	return found;
}

const CWD = "/work/private";

describe("files xcsh keeps are private", () => {
	const temp = useTempAgentDir();

	it("a fresh agent dir: sessions, history, index, log, breadcrumbs and their folders are 0600 / 0700", () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		expect(runCli(["-p", "list files"], { agentDir: temp.agentDir, cwd: project }).status).toBe(0);
		expect(runCli(["sessions"], { agentDir: temp.agentDir, cwd: project }).status).toBe(0);
		const paths = everyPath(temp.agentDir);
		expect(paths.some((p) => p.endsWith(".jsonl"))).toBe(true);
		expect(paths).toContain("history.db");
		expect(paths).toContain("index.db");
		expect(openToOthers(temp.agentDir)).toEqual([]);
	});

	it("blobs, shares, trash, migration backups and rewritten sessions are private too", async () => {
		const blobs = new BlobStore(join(temp.agentDir, "blobs"));
		await blobs.put(Buffer.from("an image"));
		await recordShare(
			{ sessionId: "s", url: "https://example.invalid/x", scope: "branch", sharedAt: "2026-11-01T00:00:00Z" },
			join(temp.agentDir, "shares.json"),
		);
		const history = HistoryStorage.open(join(temp.agentDir, "history.db"));
		history.add("a prompt", CWD);
		await history.flush();
		// While xcsh runs, SQLite's write-ahead log holds the newest prompts: it gets the database's mode.
		expect(statSync(join(temp.agentDir, "history.db-wal")).mode & 0o777).toBe(0o600);
		await history.close();

		const session = await SessionManager.create(CWD);
		session.appendMessage(userMessage("hello"));
		session.appendMessage(assistantMessage("hi"));
		await session.setSessionName("renamed: an atomic rewrite");
		const file = session.getSessionFile()!;
		await session.close();

		const v1 = join(getDefaultSessionDir(CWD), "old.jsonl");
		writeFileSync(v1, `${JSON.stringify({ type: "session", id: "old", timestamp: "t", cwd: CWD })}\n`, { mode: 0o644 });
		await (await SessionManager.open(v1)).close();
		expect(statSync(`${v1}.v1.bak`).mode & 0o777).toBe(0o600);

		await moveSessionToTrash(file);
		expect(openToOthers(temp.agentDir)).toEqual([]);
	});

	it("an install from an earlier xcsh is tightened on start, with one notice, once", () => {
		const sessions = join(temp.agentDir, "sessions", "--work--");
		mkdirSync(sessions, { recursive: true, mode: 0o755 });
		chmodSync(temp.agentDir, 0o755);
		chmodSync(join(temp.agentDir, "sessions"), 0o755);
		writeFileSync(join(sessions, "a.jsonl"), "{}\n", { mode: 0o644 });
		writeFileSync(join(temp.agentDir, "models.json"), "{}\n", { mode: 0o644 });
		expect(openToOthers(temp.agentDir)).toHaveLength(5);

		const first = runCli(["history"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(first.stderr).toContain(`xcsh: ${temp.agentDir} is now private (5 items could be read by other users)\n`);
		expect(openToOthers(temp.agentDir)).toEqual([]);
		const second = runCli(["history"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(second.stderr).not.toContain("is now private");
	});

	it("exports keep the person's umask", () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		expect(runCli(["-p", "list files"], { agentDir: temp.agentDir, cwd: project }).status).toBe(0);
		const [name] = readdirSync(getDefaultSessionDir(project));
		const out = join(temp.root, "out.html");
		const result = runCli(["--export", join(getDefaultSessionDir(project), name!), out], {
			agentDir: temp.agentDir,
			cwd: project,
		});
		expect(result.status).toBe(0);
		expect(statSync(out).mode & 0o777).toBe(0o666 & ~process.umask());
	});
});
