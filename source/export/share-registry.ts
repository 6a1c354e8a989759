import { randomBytes } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { getAgentDir } from "../agent-dir.js";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../private-files.js";
import { findCustomShare } from "./custom-share.js";
import { runProcess } from "./run-process.js";

/** One successful share, kept so it can be listed and revoked later (even after the session is deleted). */
export interface ShareRecord {
	id: string;
	sessionId: string;
	sharedAt: string;
	url: string;
	scope: string;
	gistId?: string;
	gistUrl?: string;
	/** The custom share module that produced it. */
	handler?: string;
	revokedAt?: string;
}

/** `<agentDir>/shares.json` */
export function sharesPath(): string {
	return join(getAgentDir(), "shares.json");
}

/** Every recorded share; a damaged file is an error (and is never overwritten). */
export async function readShares(path: string = sharesPath()): Promise<ShareRecord[]> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
	try {
		const value = JSON.parse(text) as { shares?: unknown };
		if (!Array.isArray(value.shares)) throw new Error("no shares list");
		return value.shares as ShareRecord[];
	} catch (error) {
		throw new Error(`${path} is damaged (${error instanceof Error ? error.message : String(error)}); fix or move it`);
	}
}

async function writeShares(records: readonly ShareRecord[], path: string): Promise<void> {
	await ensurePrivateDir(dirname(path));
	const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	await writeFile(temp, `${JSON.stringify({ shares: records }, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
	await rename(temp, path);
}

/** Appends a share to the registry and returns it with its id. */
export async function recordShare(share: Omit<ShareRecord, "id">, path: string = sharesPath()): Promise<ShareRecord> {
	const records = await readShares(path);
	const record: ShareRecord = { id: randomBytes(4).toString("hex"), ...share };
	await writeShares([...records, record], path);
	return record;
}

/** The last path segment of a gist URL. */
export function gistIdOf(gistUrl: string): string | undefined {
	return /gist\.github\.com\/(?:[^/]+\/)?([0-9a-f]+)/i.exec(gistUrl)?.[1];
}

/**
 * Revokes a share: `gh gist delete <id>` for gists, the share module's `revoke(url)` export for
 * custom shares; then marks it revoked. Works whether or not the session still exists.
 */
export async function revokeShare(
	id: string,
	options: { env?: NodeJS.ProcessEnv; agentDir?: string; path?: string } = {},
): Promise<ShareRecord> {
	const path = options.path ?? sharesPath();
	const records = await readShares(path);
	const record = records.find((r) => r.id === id || r.url === id);
	if (!record) throw new Error(`No share ${id} (see /shares)`);
	if (record.revokedAt) throw new Error(`Share ${record.id} was already revoked on ${record.revokedAt}`);
	if (record.gistId) {
		const result = await runProcess(
			"gh",
			["gist", "delete", record.gistId],
			options.env ? { env: options.env } : {},
		).catch((error: unknown) => {
			const code = (error as NodeJS.ErrnoException).code;
			throw new Error(code === "ENOENT" ? "GitHub CLI (gh) is not installed: cannot delete the gist" : String(error));
		});
		if (result.code !== 0) throw new Error(`gh gist delete failed: ${result.stderr.trim().split("\n")[0] ?? ""}`);
	} else {
		const module = record.handler ?? (await findCustomShare(options.agentDir));
		if (!module) throw new Error("The share module that made this share is gone: cannot revoke it");
		const loaded = (await import(`${pathToFileURL(module).href}?revoke=${Date.now()}`)) as { revoke?: unknown };
		if (typeof loaded.revoke !== "function") throw new Error(`${module} has no revoke(url) export`);
		await (loaded.revoke as (url: string) => Promise<unknown>)(record.url);
	}
	const revoked: ShareRecord = { ...record, revokedAt: new Date().toISOString() };
	await writeShares(
		records.map((r) => (r.id === record.id ? revoked : r)),
		path,
	);
	return revoked;
}

/** Shares of a session that have not been revoked (an unreadable registry counts as none, and is reported elsewhere). */
export async function liveSharesOf(sessionId: string, path: string = sharesPath()): Promise<ShareRecord[]> {
	const records = await readShares(path).catch(() => []);
	return records.filter((r) => r.sessionId === sessionId && !r.revokedAt);
}

/** The warning shown before deleting a session that is still shared. */
export function liveSharesWarning(count: number): string {
	return `This session has ${count} live ${count === 1 ? "share" : "shares"} (see /shares; revoking them needs the registry, not the session). Delete again to confirm`;
}
