import { type Dirent, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parseClaudeCode } from "./claude-code.js";
import { parseCodex } from "./codex.js";
import { parseGemini } from "./gemini.js";
import { type ImportPlan, type ParseOptions, SkipError, type SourceTool } from "./import-plan.js";
import { parseOpencode } from "./opencode.js";
import { isOpencodeDatabase, isStorageRoot, isStorageSessionFile, storageSessionFiles } from "./opencode-storage.js";
import { parsePi } from "./pi.js";
import { isRecord } from "./source-lines.js";

/** The format of a source from its first line (the whole text for a one-object `.json`), or undefined. */
export function detectTool(text: string): SourceTool | undefined {
	const end = text.indexOf("\n");
	const firstLine = (end < 0 ? text : text.slice(0, end)).trim();
	let first: Record<string, unknown> | undefined;
	try {
		const parsed: unknown = JSON.parse(firstLine);
		if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
			first = parsed as Record<string, unknown>;
	} catch {
		// a pretty-printed .json: its first line alone is not JSON
		if (firstLine === "{" && /"sessionId"\s*:/.test(text.slice(0, 4096)) && /"messages"\s*:/.test(text))
			return "gemini";
		if (firstLine === "{" && /"info"\s*:/.test(text.slice(0, 4096)) && /"parts"\s*:/.test(text)) return "opencode";
		// a session file of opencode's storage tree
		if (firstLine === "{" && /"id"\s*:\s*"ses_/.test(text.slice(0, 4096)) && /"projectID"\s*:/.test(text))
			return "opencode";
		return undefined;
	}
	if (!first) return undefined;
	if (first.type === "session" && typeof first.id === "string") return "pi";
	if ((isRecord(first.info) && Array.isArray(first.messages)) || (typeof first.id === "string" && "projectID" in first))
		return "opencode";
	if (
		first.type === "session_meta" ||
		(first.type === undefined && typeof first.id === "string" && "instructions" in first)
	)
		return "codex";
	if (typeof first.sessionId === "string" && "projectHash" in first) return "gemini";
	if (typeof first.sessionId === "string" || first.type === "file-history-snapshot" || first.type === "summary")
		return "claude-code";
	if (first.type === "queue-operation") return "claude-code";
	return undefined;
}

/** Parses a source with the given (or detected) format; SkipError says why it cannot be imported. */
export function parseSource(text: string, path: string, from: SourceTool | "auto", options: ParseOptions): ImportPlan {
	if (text.trim() === "") throw new SkipError("empty file");
	const tool = from === "auto" ? detectTool(text) : from;
	if (tool === undefined)
		throw new SkipError("not a session of a known tool (claude-code, codex, gemini, opencode, pi)");
	switch (tool) {
		case "claude-code":
			return parseClaudeCode(text, path, options);
		case "codex":
			return parseCodex(text, path, options);
		case "gemini":
			return parseGemini(text, path, options);
		case "pi":
			return parsePi(text, path, options);
		case "opencode":
			return parseOpencode(text, path, options);
		default: {
			const exhaustive: never = tool;
			throw new SkipError(`unknown format ${String(exhaustive)}`);
		}
	}
}

function looksLikeSession(name: string): boolean {
	return (
		name.endsWith(".jsonl") ||
		(name.startsWith("session-") && name.endsWith(".json")) ||
		isStorageSessionFile(name) ||
		isOpencodeDatabase(name)
	);
}

/**
 * A folder's files before its subfolders, and Claude Code's older `agent-*.jsonl` after the other
 * files: a Claude Code session (`<id>.jsonl`) is imported before its subagents (`<id>/subagents/`,
 * or `agent-*.jsonl` beside it), which name it as their parent.
 */
function parentsFirst(a: Dirent, b: Dirent): number {
	const rank = (entry: Dirent) => (entry.isDirectory() ? 2 : entry.name.startsWith("agent-") ? 1 : 0);
	return rank(a) - rank(b) || a.name.localeCompare(b.name);
}

/**
 * Session files under a path: the file itself, or every `.jsonl`, Gemini `session-*.json`, opencode
 * session file (`ses_*.json`; a storage root's `message/` and `part/` trees are read per session,
 * never walked) and opencode database (`opencode.db`, `opencode-<channel>.db`) below a directory.
 */
export function sourceFiles(path: string): string[] {
	const stat = statSync(path);
	if (!stat.isDirectory()) return [path];
	const found: string[] = [];
	const walk = (dir: string) => {
		if (isStorageRoot(dir)) {
			found.push(...storageSessionFiles(dir));
			return;
		}
		for (const entry of readdirSync(dir, { withFileTypes: true }).sort(parentsFirst)) {
			const full = join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.isFile() && looksLikeSession(basename(full))) found.push(full);
		}
	};
	walk(path);
	return found;
}
