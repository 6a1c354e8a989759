/** Hand-made session files for the doctor tests: one line at a time, damage included. */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd } from "../../source/session/session-paths.js";

export const CWD = "/work/project";

/** A header line; `version: null` gives the v1 shape (no version field). */
export function headerLine(version: number | null = 3, id = "sess-0001"): string {
	const header: Record<string, unknown> = { type: "session" };
	if (version !== null) header.version = version;
	Object.assign(header, { id, timestamp: "2026-02-16T10:20:30.000Z", cwd: CWD });
	return JSON.stringify(header);
}

/** A `custom` entry line. */
export function entryLine(id: string, parentId: string | null, data: unknown = { n: id }): string {
	return JSON.stringify({
		type: "custom",
		id,
		parentId,
		timestamp: "2026-02-16T10:21:00.000Z",
		customType: "doctor-test",
		data,
	});
}

/** A user message entry whose content holds an image referencing blob `hash`. */
export function blobMessageLine(id: string, parentId: string | null, hash: string): string {
	return JSON.stringify({
		type: "message",
		id,
		parentId,
		timestamp: "2026-02-16T10:21:00.000Z",
		message: {
			role: "user",
			content: [
				{ type: "text", text: "look" },
				{ type: "image", data: `blob:sha256:${hash}`, mimeType: "image/png" },
			],
			timestamp: 1_760_000_000_000,
		},
	});
}

/** A linear chain `e1 → e2 → …` of `count` entry lines. */
export function chainLines(count: number, prefix = "e", first: string | null = null): string[] {
	const lines: string[] = [];
	let parent = first;
	for (let i = 1; i <= count; i++) {
		const id = `${prefix}${i}`;
		lines.push(entryLine(id, parent));
		parent = id;
	}
	return lines;
}

/** The session directory of the test project under the agent dir (so `--all` finds it). */
export function projectDir(agentDir: string, cwd = CWD): string {
	const dir = join(agentDir, "sessions", encodeCwd(cwd));
	// Private, as xcsh makes it: a world-readable agent dir gets tightened (with a notice) on start.
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	return dir;
}

/** Joins lines with "\n" (strings or raw bytes), with or without a final newline. */
export function sessionBytes(lines: readonly (string | Buffer)[], finalNewline = true): Buffer {
	const parts: Buffer[] = [];
	lines.forEach((line, i) => {
		if (i > 0) parts.push(Buffer.from("\n"));
		parts.push(typeof line === "string" ? Buffer.from(line) : line);
	});
	if (finalNewline && lines.length > 0) parts.push(Buffer.from("\n"));
	return Buffer.concat(parts);
}

/** Writes a session file in the project dir and returns its path. */
export function writeSession(
	agentDir: string,
	name: string,
	lines: readonly (string | Buffer)[],
	finalNewline = true,
): string {
	const path = join(projectDir(agentDir), name);
	writeFileSync(path, sessionBytes(lines, finalNewline));
	return path;
}

/** Bytes and mtime, to prove a file was not touched. */
export function fingerprint(path: string): { bytes: Buffer; mtimeMs: number; size: number } {
	const stat = statSync(path);
	return { bytes: readFileSync(path), mtimeMs: stat.mtimeMs, size: stat.size };
}
