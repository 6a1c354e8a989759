/**
 * File modes: `npm run bench:modes` (builds nothing: run `npm run build` first).
 *
 * Drives the built CLI through a day's work in a fresh XCSH_AGENT_DIR (prompts, listing, search,
 * history, an export, a damaged session repaired by the doctor, a migration, a share record, an
 * image blob, a rename, the trash) and prints the mode of every file and folder it left, grouped by
 * kind. Then it plants an install as an earlier xcsh left it (0755 / 0644) and shows one start
 * tightening it. Exit 1 when anything under the agent dir is readable by others.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

const BIN = resolve(import.meta.dirname, "../bin/xcsh.js");
const root = mkdtempSync(join(tmpdir(), "xcsh-modes-"));
const agentDir = join(root, "agent");
const project = join(root, "project");
mkdirSync(project);
writeFileSync(join(project, "notes.txt"), "line one\nline two\n");
process.env.XCSH_AGENT_DIR = agentDir;

function xcsh(args: string[], dir = agentDir): { status: number | null; stdout: string; stderr: string } {
	const env = { ...process.env, XCSH_AGENT_DIR: dir, NO_COLOR: "1", XCSH_TERMINAL_ID: "bench-modes" };
	const run = spawnSync(process.execPath, [BIN, ...args], { cwd: project, env, encoding: "utf8" });
	if (run.status !== 0 && run.status !== 1) throw new Error(`xcsh ${args.join(" ")}: ${run.stderr}`);
	return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A path's kind for the table: its folder under the agent dir and its suffix, ids generalised. */
function kindOf(path: string): string {
	return path
		.replace(/sessions\/[^/]+/, "sessions/<project>")
		.replace(/<project>\/[^/.]+\.jsonl/, "<project>/<session>.jsonl")
		.replace(/blobs\/[0-9a-f]{64}/, "blobs/<sha256>")
		.replace(/terminal-sessions\/[^/]+/, "terminal-sessions/<terminal>")
		.replace(/trash\/[^/]+/, "trash/<session>");
}

function walk(dir: string): { path: string; mode: number; isDir: boolean }[] {
	const out: { path: string; mode: number; isDir: boolean }[] = [];
	const visit = (path: string) => {
		const stat = lstatSync(path);
		if (stat.isSymbolicLink()) return;
		out.push({ path: relative(dir, path) || ".", mode: stat.mode & 0o777, isDir: stat.isDirectory() });
		if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
	};
	visit(dir);
	return out;
}

const { BlobStore } = await import("../source/session/blob-store.js");
const { recordShare } = await import("../source/export/share-registry.js");
const { SessionManager } = await import("../source/session/session-manager.js");
const { getDefaultSessionDir } = await import("../source/session/session-paths.js");
const { moveSessionToTrash } = await import("../source/session/session-trash.js");

xcsh(["-p", "read notes.txt"]);
xcsh(["-p", "--continue", "list files"]);
xcsh(["-p", "run git status"]);
xcsh(["sessions"]);
xcsh(["search", "notes"]);
xcsh(["history"]);
const sessionDir = getDefaultSessionDir(project);
const [first] = readdirSync(sessionDir).filter((name) => name.endsWith(".jsonl"));
xcsh(["--export", join(sessionDir, first!), join(root, "export.html")]);
const named = await SessionManager.open(join(sessionDir, first!));
await named.setSessionName("a rename: an atomic rewrite");
await named.close();
const v1 = join(sessionDir, "2026-01-01T00-00-00-000Z_v1.jsonl");
writeFileSync(v1, `${JSON.stringify({ type: "session", id: "v1", timestamp: "t", cwd: project })}\n{oops\n`, {
	mode: 0o644,
});
xcsh(["doctor", "--fix", v1]);
await (await SessionManager.open(v1)).close();
await new BlobStore(join(agentDir, "blobs")).put(Buffer.from("an image"));
await recordShare({
	sessionId: "s",
	url: "https://example.invalid/s",
	scope: "branch",
	sharedAt: "2026-12-01T00:00:00Z",
});
await moveSessionToTrash(v1);

const entries = walk(agentDir);
const groups = new Map<string, { modes: Set<string>; count: number; isDir: boolean }>();
for (const entry of entries) {
	const kind = entry.path === "." ? "(the agent dir)" : kindOf(entry.path);
	const group = groups.get(kind) ?? { modes: new Set(), count: 0, isDir: entry.isDir };
	group.modes.add(entry.mode.toString(8).padStart(4, "0"));
	group.count++;
	groups.set(kind, group);
}
const say = (line: string) => process.stdout.write(`${line}\n`);
say("| what (under the agent dir) | kind | count | mode |");
say("| --- | --- | --: | --- |");
for (const [kind, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
	say(`| \`${kind}\` | ${group.isDir ? "folder" : "file"} | ${group.count} | ${[...group.modes].join(", ")} |`);
}
const open = entries.filter((entry) => (entry.mode & 0o077) !== 0);
const exportMode = (lstatSync(join(root, "export.html")).mode & 0o777).toString(8).padStart(4, "0");
const umask = process.umask().toString(8).padStart(4, "0");
say(
	`\n${entries.length} files and folders, ${open.length} readable by others; the export is ${exportMode} (umask ${umask})`,
);

// An install as an earlier xcsh left it: everything 0755 / 0644.
const old = join(root, "old-agent");
mkdirSync(join(old, "sessions", "--p--"), { recursive: true });
writeFileSync(join(old, "sessions", "--p--", "a.jsonl"), "{}\n");
writeFileSync(join(old, "history.db"), "");
for (const path of [old, join(old, "sessions"), join(old, "sessions", "--p--")]) chmodSync(path, 0o755);
const firstStart = xcsh(["history"], old).stderr.trim();
const secondStart = xcsh(["history"], old).stderr.trim();
const leftOpen = walk(old).filter((entry) => (entry.mode & 0o077) !== 0).length;
say(
	`earlier install: first start says "${firstStart}"; then ${leftOpen} readable by others; second start says "${secondStart}"`,
);

if (open.length > 0 || leftOpen > 0) {
	say(`readable by others: ${open.map((entry) => entry.path).join(", ")} (kept in ${root})`);
	process.exitCode = 1;
} else {
	rmSync(root, { recursive: true, force: true });
}
