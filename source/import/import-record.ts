import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rename, renameSync, statSync, writeFile, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { getAgentDir } from "../agent-dir.js";
import type { SourceTool } from "./import-plan.js";

/**
 * What was imported from one source session: the xcsh session it went to, the entry each source
 * key became, and one digest of what those items were (`itemsDigest`). A re-import appends only
 * keys not in here; when the items under the recorded keys no longer digest the same, the source
 * changed incompatibly.
 */
export interface ImportRecord {
	readonly version: 2;
	readonly tool: SourceTool;
	readonly sourceId: string;
	sourcePath: string;
	sessionFile: string;
	importer: string;
	/** key → entry id */
	entries: Record<string, string>;
	/** sha1 over the recorded items in the source's order (see `ItemsDigest`). */
	itemsDigest: string;
}

/**
 * The first record format, still read: a hash per item (`itemHash`) instead of one digest. Hashing
 * each item on its own cost more than half of a first import's parse; an append rewrites it as v2.
 */
export interface ImportRecordV1 extends Omit<ImportRecord, "version" | "entries" | "itemsDigest"> {
	readonly version: 1;
	/** key → [entry id, item hash] */
	entries: Record<string, [string, string]>;
}

/** The entry id each recorded source key became. */
export function recordedIds(record: ImportRecord | ImportRecordV1): Map<string, string> {
	const ids = new Map<string, string>();
	for (const [key, value] of Object.entries(record.entries)) ids.set(key, typeof value === "string" ? value : value[0]);
	return ids;
}

const writeFileAsync = promisify(writeFile);
const renameAsync = promisify(rename);

/** Where import records live: `<agentDir>/imports/`. */
export function importsDir(): string {
	return join(getAgentDir(), "imports");
}

function recordPath(tool: SourceTool, sourceId: string): string {
	const digest = createHash("sha256").update(`${tool}\0${sourceId}`).digest("hex").slice(0, 32);
	return join(importsDir(), `${tool}-${digest}.json`);
}

/** The record of an earlier import of this source session, if any (an unreadable record counts as none). */
export function readImportRecord(tool: SourceTool, sourceId: string): ImportRecord | ImportRecordV1 | undefined {
	try {
		const parsed = JSON.parse(readFileSync(recordPath(tool, sourceId), "utf8")) as ImportRecord | ImportRecordV1;
		const known = parsed.version === 2 ? typeof parsed.itemsDigest === "string" : parsed.version === 1;
		return known && parsed.tool === tool && parsed.sourceId === sourceId ? parsed : undefined;
	} catch {
		return undefined;
	}
}

/** Saves a record atomically (temp file, then rename), private to the user like the sessions. */
export function writeImportRecord(record: ImportRecord | ImportRecordV1): void {
	const path = recordPath(record.tool, record.sourceId);
	mkdirSync(importsDir(), { recursive: true, mode: 0o700 });
	const temp = `${path}.${process.pid}.tmp`;
	writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
	renameSync(temp, path);
}

/** A record ready to be written: whose it is, and its JSON (made on the thread that built the session). */
export interface RecordText {
	readonly tool: SourceTool;
	readonly sourceId: string;
	readonly json: string;
}

/** The record as `RecordText`. */
export function recordText(record: ImportRecord): RecordText {
	return { tool: record.tool, sourceId: record.sourceId, json: JSON.stringify(record) };
}

/**
 * `RecordText` of a record whose `entries` are already JSON (`entriesJson`, or its pieces in order):
 * the same text `recordText` makes, as one flat string (a big record made of added-up strings was
 * copied again when written).
 */
export function recordTextWith(
	record: Omit<ImportRecord, "entries">,
	entriesJson: string | readonly string[],
): RecordText {
	const { version, tool, sourceId, sourcePath, sessionFile, importer, itemsDigest } = record;
	const head = `{"version":${version},"tool":${JSON.stringify(tool)},"sourceId":${JSON.stringify(sourceId)},"sourcePath":${JSON.stringify(sourcePath)},"sessionFile":${JSON.stringify(sessionFile)},"importer":${JSON.stringify(importer)},"entries":`;
	const tail = `,"itemsDigest":${JSON.stringify(itemsDigest)}}`;
	const json = typeof entriesJson === "string" ? `${head}${entriesJson}${tail}` : [head, ...entriesJson, tail].join("");
	return { tool, sourceId, json };
}

/** `writeImportRecord` off the main thread, for many records at once (the folder must exist: `ensureImportsDir`). */
export async function writeImportRecordAsync(record: RecordText): Promise<void> {
	const path = recordPath(record.tool, record.sourceId);
	const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	// The callback calls: the promise API opens a file handle per file, which costs this thread more.
	await writeFileAsync(temp, record.json, { mode: 0o600 });
	await renameAsync(temp, path);
}

/** Makes the folder import records live in. */
export function ensureImportsDir(): void {
	mkdirSync(importsDir(), { recursive: true, mode: 0o700 });
}

/** True when a record of this source session is on disk (not empty: a record torn by a crash is none). */
export function hasImportRecord(tool: SourceTool, sourceId: string): boolean {
	try {
		return statSync(recordPath(tool, sourceId)).size > 0;
	} catch {
		return false;
	}
}
