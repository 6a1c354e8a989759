import type { PendingBlob } from "../session/blob-refs.js";
import { withoutUndefined } from "../session/entry-fields.js";
import { serializeEntry } from "../session/jsonl.js";
import { persistsAsIs, prepareForPersistence } from "../session/persist-transform.js";
import type { FileEntry, SessionHeader } from "../session/types.js";
import { EntryIds, fieldsOf, ItemsDigest, itemJson, linePrefix, sharedParts, sharedPayload } from "./entry-lines.js";
import { IMPORT_CUSTOM_TYPE, type PlanItem } from "./import-plan.js";

/** A session's lines, encoded, and what the import record keeps of them. */
export interface SessionBytes {
	/** Every line, newline-terminated, the header first. */
	readonly bytes: Uint8Array;
	/** source key → entry id. */
	readonly entries: Record<string, string>;
	/** The `ItemsDigest` of the items in the order they were added. */
	readonly itemsDigest: string;
	/** Images the lines refer to as blobs: stored before the session becomes visible. */
	readonly blobs: PendingBlob[];
}

/**
 * A new imported session written as its source is read: each item becomes its line as soon as the
 * reader is done with it, encoded straight into one growing buffer (no strings joined, nothing of
 * the session kept as objects), and the import record's digest hashes the bytes written instead
 * of a second serialisation. The header and the provenance entry, which need the whole source
 * (title, bad lines), are put in front at the end. Lines are the ones `buildSessionLines` makes.
 */
export class SessionBody {
	#buf: Buffer;
	#at = 0;
	readonly #fresh = new EntryIds();
	readonly #ids = new Map<string, string>();
	/** key → where its line starts, to move the leaf last at the end. */
	readonly #starts = new Map<string, number>();
	/** Keys that some item names as its parent. */
	readonly #parents = new Set<string>();
	readonly #entries: Record<string, string> = {};
	readonly #digest = new ItemsDigest();
	readonly #blobs: PendingBlob[] = [];
	readonly #rootId: string;
	#lastKey: string | undefined;
	#count = 0;
	#replied = false;

	/** `capacity`: about how many bytes the lines take (the source's length will do). */
	constructor(capacity: number) {
		// Its own memory (never Node's shared pool), so it can be handed to another thread whole.
		this.#buf = Buffer.allocUnsafeSlow(Math.max(4096, capacity));
		this.#rootId = this.#fresh.next();
	}

	/** Items added so far. */
	get count(): number {
		return this.#count;
	}

	/** Whether an assistant message was added (xcsh keeps only sessions with one). */
	get replied(): boolean {
		return this.#replied;
	}

	/** Writes an item's line; its parent is the entry its parent key became (the root when it has none yet). */
	add(item: PlanItem): void {
		const parentId = item.parent === null ? this.#rootId : (this.#ids.get(item.parent) ?? this.#rootId);
		if (item.parent !== null) this.#parents.add(item.parent);
		const id = this.#fresh.next();
		const start = this.#at;
		const shared = sharedPayload(item.body);
		if (shared && persistsAsIs(shared.json)) {
			// The entry's JSON is the payload's, already made: no entry object, no transform walk.
			const [head] = sharedParts(item, shared);
			this.#write(`${linePrefix(shared.type, id, parentId, item.timestamp)}${shared.entryHead}`);
			const from = this.#at;
			this.#write(shared.json);
			this.#digest.addBytes(item.key, head!, this.#buf.subarray(from, this.#at), "}]");
			this.#write("}\n");
		} else {
			const fields = fieldsOf(item.body, parentId, this.#ids);
			const entry = withoutUndefined({
				type: fields.type,
				id,
				parentId,
				timestamp: item.timestamp,
				...fields,
			}) as FileEntry;
			this.#digest.add(item.key, ...(shared ? sharedParts(item, shared) : [itemJson(item)]));
			this.#write(`${serializeEntry(prepareForPersistence(entry, this.#blobs))}\n`);
		}
		this.#ids.set(item.key, id);
		this.#starts.set(item.key, start);
		this.#entries[item.key] = id;
		this.#lastKey = item.key;
		this.#count++;
		if (item.body.kind === "message" && item.body.message.role === "assistant") this.#replied = true;
	}

	#write(text: string): void {
		// A UTF-16 unit is at most 3 bytes of UTF-8.
		if (this.#buf.length - this.#at < text.length * 3) this.#grow(this.#at + text.length * 3);
		this.#at += this.#buf.write(text, this.#at);
	}

	#grow(needed: number): void {
		const next = Buffer.allocUnsafeSlow(Math.max(needed, this.#buf.length * 2));
		this.#buf.copy(next, 0, 0, this.#at);
		this.#buf = next;
	}

	/**
	 * The session's bytes: the header, the root entry (`root`, the provenance) and every item's
	 * line, with `leafKey`'s line moved last when it has no children (so it is the leaf on reload).
	 */
	finish(header: SessionHeader, root: { timestamp: string; data: unknown }, leafKey?: string): SessionBytes {
		if (leafKey !== undefined && leafKey !== this.#lastKey && !this.#parents.has(leafKey)) this.#moveLast(leafKey);
		const rootEntry: FileEntry = {
			type: "custom",
			id: this.#rootId,
			parentId: null,
			timestamp: root.timestamp,
			customType: IMPORT_CUSTOM_TYPE,
			data: root.data,
		};
		const head = Buffer.from(
			`${serializeEntry(prepareForPersistence(header, this.#blobs))}\n${serializeEntry(prepareForPersistence(rootEntry, this.#blobs))}\n`,
		);
		const bytes = new Uint8Array(head.length + this.#at);
		bytes.set(head, 0);
		bytes.set(this.#buf.subarray(0, this.#at), head.length);
		return { bytes, entries: this.#entries, itemsDigest: this.#digest.digest(), blobs: this.#blobs };
	}

	#moveLast(key: string): void {
		const start = this.#starts.get(key);
		if (start === undefined) return;
		const end = this.#buf.indexOf(0x0a, start) + 1;
		const line = Buffer.from(this.#buf.subarray(start, end));
		this.#buf.copyWithin(start, end, this.#at);
		line.copy(this.#buf, this.#at - line.length);
	}
}
