import { lstat, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import type { CliIo } from "./cli-io.js";

/** Printed (exit 2) when `--older-than` is missing. */
export const PURGE_USAGE = "Usage: xcsh sessions purge --older-than <duration>";

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MB = 1024 * 1024;
/** `<ISO time with : and . as ->_<name>`, as the trash names items. */
const TRASH_STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_/;

/** `30d`, `12h`, `90m` → milliseconds; undefined for anything else. */
export function parseDuration(value: string): number | undefined {
	const match = /^(\d+)([mhd])$/.exec(value.trim());
	if (!match) return undefined;
	return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** `<agentDir>/trash` */
function getTrashDir(): string {
	return join(getAgentDir(), "trash");
}

/** One item removed from the trash. */
export interface PurgedItem {
	name: string;
	bytes: number;
}

/** When the trash name says the item was trashed, if it does. */
function trashedAt(name: string): number | undefined {
	const match = TRASH_STAMP.exec(name);
	if (!match) return undefined;
	const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
	return Number.isNaN(ms) ? undefined : ms;
}

/** Bytes under a path, without following symlinks; iterative so deep trees are fine. */
async function sizeOf(path: string): Promise<number> {
	let total = 0;
	const pending = [path];
	for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
		const stat = await lstat(next).catch(() => undefined);
		if (!stat) continue;
		total += stat.size;
		if (!stat.isDirectory()) continue;
		for (const name of await readdir(next).catch(() => [] as string[])) pending.push(join(next, name));
	}
	return total;
}

/**
 * Permanently deletes the trash items (files and directories) older than `olderThanMs`: their
 * modification time and, when the name carries it, the time they were trashed (a rename into the
 * trash keeps an old session's mtime, and a session trashed a minute ago must not go with it).
 */
async function purgeTrash(olderThanMs: number, now: number = Date.now()): Promise<PurgedItem[]> {
	const dir = getTrashDir();
	let names: string[];
	try {
		names = await readdir(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
	const cutoff = now - olderThanMs;
	const purged: PurgedItem[] = [];
	for (const name of names.sort()) {
		const path = join(dir, name);
		const stat = await lstat(path).catch(() => undefined);
		if (!stat) continue;
		const age = Math.max(stat.mtimeMs, trashedAt(name) ?? Number.NEGATIVE_INFINITY);
		if (age >= cutoff) continue;
		const bytes = await sizeOf(path);
		await rm(path, { recursive: true, force: true });
		purged.push({ name, bytes });
	}
	return purged;
}

function megabytes(bytes: number): string {
	return `${(bytes / MB).toFixed(1)} MB`;
}

/** `xcsh sessions purge --older-than <duration>`: the only way anything leaves the trash. */
export async function runPurgeCommand(olderThan: string | undefined, io: CliIo): Promise<number> {
	if (olderThan === undefined || olderThan.length === 0) {
		io.stderr(`${PURGE_USAGE}\n`);
		return 2;
	}
	const ms = parseDuration(olderThan);
	if (ms === undefined) {
		io.stderr(`--older-than takes a duration like 30d, 12h or 90m (got "${olderThan}")\n`);
		return 2;
	}
	const purged = await purgeTrash(ms);
	if (purged.length === 0) {
		io.stdout(`Nothing in the trash older than ${olderThan}\n`);
		return 0;
	}
	const total = purged.reduce((sum, item) => sum + item.bytes, 0);
	const lines = purged.map((item) => `  ${item.name} (${megabytes(item.bytes)})`);
	const noun = purged.length === 1 ? "item" : "items";
	io.stdout(`${lines.join("\n")}\nRemoved ${purged.length} ${noun} from the trash (${megabytes(total)})\n`);
	return 0;
}
