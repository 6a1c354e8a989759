import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { SourceTool } from "./import-plan.js";
import { isOpencodeDatabase } from "./opencode-storage.js";

/** A place another agent keeps its sessions. */
export interface SourceHome {
	readonly tool: SourceTool;
	readonly path: string;
}

/** The usual homes of other agents' sessions under `home` (only those that exist). */
export function sourceHomes(home: string = homedir()): SourceHome[] {
	const dataHome = process.env.XDG_DATA_HOME || join(home, ".local", "share");
	const candidates: SourceHome[] = [
		{ tool: "claude-code", path: join(home, ".claude", "projects") },
		{ tool: "codex", path: join(home, ".codex", "sessions") },
		{ tool: "gemini", path: join(home, ".gemini", "tmp") },
		{ tool: "opencode", path: join(dataHome, "opencode", "storage") },
		// opencode 1.2+: one SQLite database (`opencode-<channel>.db` for a channel build)
		...opencodeDatabases(join(dataHome, "opencode")).map((path) => ({ tool: "opencode" as const, path })),
		{ tool: "pi", path: join(home, ".pi", "agent", "sessions") },
	];
	return candidates.filter((candidate) => existsSync(candidate.path));
}

function opencodeDatabases(dir: string): string[] {
	try {
		return readdirSync(dir)
			.filter((name) => isOpencodeDatabase(name))
			.sort((a, b) => (a === "opencode.db" ? -1 : b === "opencode.db" ? 1 : a.localeCompare(b)))
			.map((name) => join(dir, name));
	} catch {
		return [];
	}
}

/**
 * What a background import reads: the usual homes, except that Gemini CLI keeps only a hash of each
 * chat's project (`~/.gemini/tmp/<sha256 of the project's path>/`), so only the chats of `cwd` (the
 * project xcsh runs in) are taken, into that project; the others wait until xcsh runs in theirs.
 */
export function autoImportHomes(cwd: string, home: string = homedir()): SourceHome[] {
	return sourceHomes(home).flatMap((found) => {
		if (found.tool !== "gemini") return [found];
		const own = join(found.path, createHash("sha256").update(cwd).digest("hex"));
		return existsSync(own) ? [{ tool: "gemini" as const, path: own }] : [];
	});
}
