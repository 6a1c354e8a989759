import { createHash, randomBytes } from "node:crypto";
import type { PendingBlob } from "../session/blob-refs.js";
import { withoutUndefined } from "../session/entry-fields.js";
import { serializeEntry } from "../session/jsonl.js";
import { persistsAsIs, prepareForPersistence } from "../session/persist-transform.js";
import type { FileEntry, SessionHeader } from "../session/types.js";
import { IMPORT_CUSTOM_TYPE, type PlanBody, type PlanItem } from "./import-plan.js";

/*
 * The lines of a new imported session, built straight from its plan: the same entries
 * SessionManager's append methods make (same fields, same key order, same persistence transform),
 * without one locked, written and indexed append per entry. Each item's JSON is made once and
 * serves both its line and the digest the import record keeps of the items.
 */

/** An item as hashed, without its key: `[parent, timestamp, body]` as JSON. */
export function itemJson(item: PlanItem): string {
	return JSON.stringify([item.parent, item.timestamp, item.body]);
}

/** The hash a v1 import record kept of each item (what it was: parent, time, body), to see later whether it changed. */
export function itemHash(item: PlanItem): string {
	return createHash("sha1").update(itemJson(item)).digest("base64url").slice(0, 16);
}

/**
 * One sha1 over a session's items, each as its key and its JSON, in the source's order: what an
 * import record keeps to tell later whether the items it imported changed. One hash per session
 * instead of one per item: a hash object per item cost more than half the parse of a first import.
 */
export class ItemsDigest {
	readonly #hash = createHash("sha1");

	/** Adds an item whose JSON (`itemJson`) is the concatenation of `parts`. */
	add(key: string, ...parts: string[]): void {
		this.#hash.update(`${JSON.stringify(key)}\n`);
		for (const part of parts) this.#hash.update(part);
		this.#hash.update("\n");
	}

	/** Adds an item, serialising it. */
	addItem(item: PlanItem): void {
		this.add(item.key, itemJson(item));
	}

	/** The digest of what was added (base64url); nothing can be added after. */
	digest(): string {
		return this.#hash.digest("base64url");
	}
}

/** The digest of these items, in this order. */
export function digestOf(items: Iterable<PlanItem>): string {
	const digest = new ItemsDigest();
	for (const item of items) digest.addItem(item);
	return digest.digest();
}

/**
 * Random-looking 8-hex entry ids, unique within one session: the n-th is n passed through a
 * bijection of 32-bit numbers keyed by a random seed (a multiply by an odd number and xor-shifts
 * each undo), so no two are the same and none has to be checked against the others. Keeping the
 * ids taken in a set cost more than serialising the entries' keys.
 */
export class EntryIds {
	#n = 0;
	readonly #seed: number;
	readonly #key: number;

	constructor() {
		const random = randomBytes(8);
		this.#seed = random.readUInt32LE(0);
		this.#key = random.readUInt32LE(4);
	}

	/** A fresh id. */
	next(): string {
		return this.idOf(this.#n++);
	}

	/** The id `next` gave (or gives) the n-th time (from 0). */
	idOf(n: number): string {
		let x = (n + this.#seed) >>> 0;
		x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
		x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
		x = (x ^ (x >>> 16) ^ this.#key) >>> 0;
		return x.toString(16).padStart(8, "0");
	}
}

/** Where each line goes, in order (no newline in it). */
export type LineSink = (line: string) => void;

/** What building a session produced besides its lines. */
export interface BuiltLines {
	/** source key → entry id, for the import record. */
	readonly entries: Record<string, string>;
	/** The `ItemsDigest` of the items in the plan's order. */
	readonly itemsDigest: string;
	/** Images the lines refer to as blobs: stored before the session becomes visible. */
	readonly blobs: PendingBlob[];
	readonly lineCount: number;
}

/** The entry id each key written so far became. */
export type EntryIdsOf = Pick<ReadonlyMap<string, string>, "get">;

/** The entry's own fields (after type, id, parentId, timestamp), as SessionManager's append method for it makes them. */
export function fieldsOf(body: PlanBody, parentId: string, ids: EntryIdsOf): Record<string, unknown> {
	switch (body.kind) {
		case "message":
			return { type: "message", message: body.message };
		case "hidden":
			return {
				type: "custom_message",
				customType: IMPORT_CUSTOM_TYPE,
				content: body.content,
				display: false,
				details: body.details,
			};
		case "model":
			return { type: "model_change", model: body.model };
		case "thinking":
			return { type: "thinking_level_change", thinkingLevel: body.level };
		case "compaction": {
			const kept = body.firstKeptKey === null ? undefined : ids.get(body.firstKeptKey);
			return {
				type: "compaction",
				summary: body.summary,
				firstKeptEntryId: kept ?? "",
				tokensBefore: body.tokensBefore,
				details: body.details,
			};
		}
		case "branchSummary":
			return { type: "branch_summary", fromId: parentId, summary: body.summary, details: body.details };
		case "label": {
			const target = ids.get(body.targetKey);
			return target
				? { type: "label", targetId: target, label: body.label }
				: { type: "custom", customType: IMPORT_CUSTOM_TYPE, data: { label: body.label, targetKey: body.targetKey } };
		}
		case "custom":
			return { type: "custom", customType: body.customType, data: body.data };
		default: {
			const exhaustive: never = body;
			throw new Error(`unknown plan item ${String(exhaustive)}`);
		}
	}
}

/** The entry of a plan item, as it is written: type, id, parent and time first, then its fields. */
export function entryOfItem(item: PlanItem, id: string, parentId: string, ids: EntryIdsOf): FileEntry {
	const fields = fieldsOf(item.body, parentId, ids);
	return withoutUndefined({ type: fields.type, id, parentId, timestamp: item.timestamp, ...fields }) as FileEntry;
}

/**
 * The JSON of a message or custom body's payload when the body has exactly its usual keys, so
 * the body's JSON (hashed) and the entry's (written) can share it; undefined otherwise.
 */
export function sharedPayload(
	body: PlanBody,
): { type: "message" | "custom"; json: string; bodyHead: string; entryHead: string } | undefined {
	const keys = Object.keys(body);
	if (body.kind === "message" && keys.length === 2 && keys[1] === "message")
		return {
			type: "message",
			json: JSON.stringify(body.message),
			bodyHead: '{"kind":"message","message":',
			entryHead: '"message":',
		};
	if (body.kind === "custom" && keys.length === 3 && keys[1] === "customType" && keys[2] === "data") {
		const json = body.data === undefined ? undefined : JSON.stringify(body.data);
		if (json === undefined) return undefined;
		const head = `"customType":${JSON.stringify(body.customType)},"data":`;
		return { type: "custom", json, bodyHead: `{"kind":"custom",${head}`, entryHead: head };
	}
	return undefined;
}

/** The item's JSON (`itemJson`) in pieces around its payload's JSON. */
export function sharedParts(item: PlanItem, shared: { json: string; bodyHead: string }): string[] {
	return [`[${JSON.stringify(item.parent)},${JSON.stringify(item.timestamp)},${shared.bodyHead}`, shared.json, "}]"];
}

/** Each entry's first keys, as `serializeEntry` orders them. */
export function linePrefix(type: string, id: string, parentId: string | null, timestamp: string): string {
	return `{"type":${JSON.stringify(type)},"id":"${id}","parentId":${parentId === null ? "null" : `"${parentId}"`},"timestamp":${JSON.stringify(timestamp)},`;
}

/**
 * Writes the header, a root entry (`root`, the provenance) and one line per item to `sink`, in
 * `order` (the plan's `items`, perhaps with one moved last); an item's parent is the entry its
 * parent key became (the root when it has none). The digest is of `items`, in their order.
 */
export function buildSessionLines(
	header: SessionHeader,
	root: { timestamp: string; data: unknown },
	items: readonly PlanItem[],
	order: readonly PlanItem[],
	sink: LineSink,
): BuiltLines {
	const blobs: PendingBlob[] = [];
	const write = (entry: FileEntry) => sink(serializeEntry(prepareForPersistence(entry, blobs)));
	const ids = new Map<string, string>();
	const fresh = new EntryIds();
	const entries: Record<string, string> = {};
	const digest = new ItemsDigest();
	// Written in the plan's order the digest is made as the lines are; otherwise each item's JSON waits.
	const inOrder = order === items;
	const later = inOrder ? undefined : new Map<PlanItem, string[]>();
	write(header);
	const rootId = fresh.next();
	write({
		type: "custom",
		id: rootId,
		parentId: null,
		timestamp: root.timestamp,
		customType: IMPORT_CUSTOM_TYPE,
		data: root.data,
	});
	for (const item of order) {
		const parentId = item.parent === null ? rootId : (ids.get(item.parent) ?? rootId);
		const id = fresh.next();
		const shared = sharedPayload(item.body);
		let parts: string[];
		if (shared && persistsAsIs(shared.json)) {
			// The entry's JSON is the payload's, already made: no entry object, no transform walk.
			parts = sharedParts(item, shared);
			sink(`${linePrefix(shared.type, id, parentId, item.timestamp)}${shared.entryHead}${shared.json}}`);
		} else {
			const entry = entryOfItem(item, id, parentId, ids);
			parts = shared ? sharedParts(item, shared) : [itemJson(item)];
			write(entry);
		}
		if (later) later.set(item, parts);
		else digest.add(item.key, ...parts);
		ids.set(item.key, id);
		entries[item.key] = id;
	}
	if (later) for (const item of items) digest.add(item.key, ...later.get(item)!);
	return { entries, itemsDigest: digest.digest(), blobs, lineCount: order.length + 2 };
}
