import { resolve } from "node:path";
import { listAllSessions, listProjectSessions } from "../index/session-listing.js";
import { clip } from "../render/clip.js";
import { formatRelativeTime } from "../render/relative-time.js";
import { safeJson, safeLine } from "../render/safe-text.js";
import { getDefaultSessionDir } from "../session/session-paths.js";
import { messageRoleOf, SessionSnapshot } from "../session/session-snapshot.js";
import { FileSessionStorage } from "../session/session-storage.js";
import type { SessionInfo } from "../session/types.js";
import type { CliIo } from "./cli-io.js";
import { formatTable } from "./format.js";
import { refreshIndexWithProgress } from "./index-progress.js";
import { withReadProgress } from "./read-progress.js";
import { sessionFileOf } from "./session-lookup.js";

/** Flags the session commands understand. */
export interface SessionsFlags {
	all: boolean;
	json: boolean;
	sessionDir: string | undefined;
	/** `sessions purge --older-than <duration>` */
	olderThan?: string | undefined;
}

function infoRow(info: SessionInfo, withCwd: boolean): string[] {
	const row = [
		info.id,
		formatRelativeTime(info.modified),
		`${info.messageCount} msg`,
		clip(info.title ?? (info.firstMessage || "(no messages)"), 60),
	];
	if (withCwd) row.splice(3, 0, info.cwd);
	return row;
}

/** `sessions info` shows one value per line: room for a long path, not for a 5,000-character title. */
const INFO_MAX_CELL = 400;

async function listCommand(flags: SessionsFlags, io: CliIo): Promise<number> {
	const dir = flags.all ? undefined : resolve(flags.sessionDir ?? getDefaultSessionDir(io.cwd));
	await refreshIndexWithProgress(
		{ stderr: io.stderr, isTTY: io.stderrIsTTY === true },
		dir === undefined ? undefined : [dir],
	);
	const sessions = dir === undefined ? await listAllSessions() : await listProjectSessions(io.cwd, dir);
	if (flags.json) {
		io.stdout(`${safeJson(sessions)}\n`);
		return 0;
	}
	if (sessions.length === 0) {
		io.stdout(flags.all ? "No sessions yet.\n" : `No sessions for ${safeLine(io.cwd)} yet (try --all).\n`);
		return 0;
	}
	io.stdout(
		`${formatTable(
			sessions.map((s) => infoRow(s, flags.all)),
			{ width: io.columns, keep: [0] },
		)}\n`,
	);
	return 0;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const item of items) {
		const k = key(item);
		counts[k] = (counts[k] ?? 0) + 1;
	}
	return counts;
}

function describeCounts(counts: Record<string, number>): string {
	const parts = Object.entries(counts).map(([k, n]) => `${n} ${k}`);
	return parts.length > 0 ? parts.join(", ") : "none";
}

async function resolveTarget(value: string, flags: SessionsFlags, io: CliIo): Promise<string | undefined> {
	return sessionFileOf(value, io, flags.sessionDir && resolve(flags.sessionDir));
}

function describeFormat(version: number | null, headerProblem: string | undefined): string {
	if (version === null) return `damaged: ${headerProblem} (opens read-only; xcsh doctor --fix repairs it)`;
	return version < 3 ? `v${version} (migrates to v3 when opened)` : `v${version}`;
}

/** `xcsh sessions info <path|id>`: what the file holds and what loading it finds. Never modifies the file. */
async function infoCommand(value: string | undefined, flags: SessionsFlags, io: CliIo): Promise<number> {
	if (!value) {
		io.stderr("Usage: xcsh sessions info <session.jsonl | session-id-prefix>\n");
		return 2;
	}
	const path = await resolveTarget(value, flags, io);
	if (!path) return 1;
	const read = await withReadProgress(path, (progress) =>
		SessionSnapshot.read(path, new FileSessionStorage(), progress),
	);
	if (read.kind === "missing") {
		io.stderr(`File not found: ${safeLine(path)}\n`);
		return 1;
	}
	if (read.kind !== "ok") {
		io.stderr(`Not a session file: ${safeLine(path)}\n`);
		return 1;
	}
	const { snapshot } = read;
	try {
		return printInfo(path, snapshot, flags, io);
	} finally {
		snapshot.close();
	}
}

function printInfo(path: string, snapshot: SessionSnapshot, flags: SessionsFlags, io: CliIo): number {
	const { header, report } = snapshot;
	const headerProblem = report.headerProblem;
	const version = headerProblem !== undefined ? null : (report.migratedFrom ?? header.version ?? 1);
	const entries = [...snapshot.getSkeleton()];
	const context = snapshot.describeContext();
	const roles = entries.map(messageRoleOf).filter((role): role is string => role !== undefined);
	const summary = {
		path,
		id: header.id,
		cwd: header.cwd,
		title: header.title,
		version,
		...(headerProblem ? { headerProblem } : {}),
		entries: countBy(entries, (e) => e.type),
		messages: countBy(roles, (role) => role),
		skippedLines: report.skippedLines,
		tornTail: report.tornTail,
		context,
	};
	if (flags.json) {
		io.stdout(`${safeJson(summary)}\n`);
		return 0;
	}
	const lines = [
		["Session", header.id],
		["File", path],
		["Project", header.cwd],
		["Title", header.title ?? "(none)"],
		["Format", describeFormat(version, headerProblem)],
		["Entries", `${entries.length} (${describeCounts(summary.entries)})`],
		["Messages", describeCounts(summary.messages)],
		["Context", `${context.messages} messages at the leaf, thinking ${context.thinkingLevel}`],
		["Model", context.models.default ?? "(none recorded)"],
		[
			"Skipped lines",
			report.skippedLines.length === 0
				? "none"
				: `${report.skippedLines.length} (lines ${report.skippedLines.map((s) => s.line).join(", ")})`,
		],
		["Torn tail", report.tornTail ? "yes (repaired on the next append)" : "no"],
	];
	// One session: paths and the title may be long, so a generous cap and no fitting to the terminal.
	io.stdout(`${formatTable(lines, { maxCell: INFO_MAX_CELL })}\n`);
	return 0;
}

/** `xcsh sessions [list|info|purge]`. Returns the exit code. */
export async function runSessionsCommand(args: readonly string[], flags: SessionsFlags, io: CliIo): Promise<number> {
	const [sub = "list", ...rest] = args;
	switch (sub) {
		case "list":
			return listCommand(flags, io);
		case "info":
			return infoCommand(rest[0], flags, io);
		case "purge": {
			const { PURGE_USAGE, runPurgeCommand } = await import("./purge-command.js");
			if (rest.length > 0) {
				io.stderr(`${PURGE_USAGE}\n`);
				return 2;
			}
			return runPurgeCommand(flags.olderThan, io);
		}
		default:
			io.stderr(`Unknown sessions command: ${sub} (expected list or info)\n`);
			return 2;
	}
}
