import { createEntryId } from "./ids.js";
import { orderEntryKeys } from "./jsonl.js";
import { checkHeaderVersion, someEntryHasId } from "./session-header.js";
import { CURRENT_SESSION_VERSION, type FileEntry, type SessionHeader } from "./types.js";

type MutableEntry = Record<string, unknown> & { type: string };

/**
 * v1 → v2: ids and a linear parent chain in file order; compaction `firstKeptEntryIndex`
 * (an index into the file's lines, header = 0) becomes `firstKeptEntryId`.
 */
function migrateV1ToV2(entries: MutableEntry[]): void {
	const taken = new Set<string>();
	for (const entry of entries) if (entry.type !== "session" && typeof entry.id === "string") taken.add(entry.id);
	let previousId: string | null = null;
	for (const entry of entries) {
		if (entry.type === "session") {
			entry.version = 2;
			continue;
		}
		if (typeof entry.id !== "string") {
			const id = createEntryId(taken);
			taken.add(id);
			entry.id = id;
		}
		entry.parentId = previousId;
		previousId = entry.id as string;
	}
	for (const entry of entries) {
		if (entry.type !== "compaction" || typeof entry.firstKeptEntryIndex !== "number") continue;
		const target = entries[entry.firstKeptEntryIndex];
		if (target && target.type !== "session" && typeof entry.firstKeptEntryId !== "string") {
			entry.firstKeptEntryId = target.id;
		}
		delete entry.firstKeptEntryIndex;
	}
}

/** v2 → v3: the legacy `hookMessage` role becomes `custom`. */
function migrateV2ToV3(entries: MutableEntry[]): void {
	for (const entry of entries) {
		if (entry.type === "session") {
			entry.version = 3;
			continue;
		}
		if (entry.type !== "message") continue;
		const message = entry.message as { role?: unknown } | undefined;
		if (message?.role === "hookMessage") message.role = "custom";
	}
}

/**
 * Migrates file entries (header first) to the current version in place, with leading keys
 * reordered. Returns the version the file had before, or undefined when nothing ran (a header whose
 * version is damaged while its entries carry ids is left alone: the tree is kept as it is).
 */
export function migrateSessionEntries(entries: FileEntry[]): number | undefined {
	const header = entries[0];
	if (header?.type !== "session") return undefined;
	const check = checkHeaderVersion(header as SessionHeader, someEntryHasId(entries));
	if (check.kind === "malformed") return undefined;
	const from = check.kind === "declared" ? check.version : 1;
	if (from >= CURRENT_SESSION_VERSION) return undefined;
	const mutable = entries as unknown as MutableEntry[];
	if (from < 2) migrateV1ToV2(mutable);
	if (from < 3) migrateV2ToV3(mutable);
	for (let i = 0; i < entries.length; i++) entries[i] = orderEntryKeys(entries[i]!);
	return from;
}
