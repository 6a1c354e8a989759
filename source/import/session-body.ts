import { createHash } from "node:crypto";
import type { PendingBlob } from "../session/blob-refs.js";
import { serializeEntry } from "../session/jsonl.js";
import { persistsAsIs, prepareForPersistence } from "../session/persist-transform.js";
import type { FileEntry, SessionHeader } from "../session/types.js";
import {
	EntryIds,
	type EntryIdsOf,
	entryOfItem,
	itemJson,
	linePrefix,
	sharedParts,
	sharedPayload,
} from "./entry-lines.js";
import { IMPORT_CUSTOM_TYPE, type PlanItem } from "./import-plan.js";
import { KeyColumn, KeyTable } from "./key-table.js";
import { SpillFile } from "./spill-file.js";

/** Room kept before the items' lines for the header and the provenance entry, written last. */
const FRONT = 8192;

/** The digest's bytes are hashed in pieces of about this size. */
const DIGEST_PIECE = 256 << 10;

/** A session built to disk keeps at most about this many bytes of its lines in memory. */
const SPILL_BYTES = 8 << 20;

/** The record's entries are made into one string per this many. */
const ENTRIES_PER_PIECE = 4096;

/**
 * The lines of a session built to disk: written as `head`, then the lines put aside (in a spill
 * file and the last few in memory), with the leaf's line moved last when it must be.
 */
export interface SpilledBody {
	/** Hands every byte of the session, in order, to `put`, in pieces of a few MB (`put` must be done with each when it returns). */
	writeTo(put: (bytes: Uint8Array) => void): void;
	/** Frees the spill file (call once the body is written, or given up). */
	close(): void;
}

/** A session's lines, encoded, and what the import record keeps of them. */
export interface SessionBytes {
	/** Every line, newline-terminated, the header first: in memory, or (a session built to disk) to be written out. */
	readonly body: Uint8Array | SpilledBody;
	/** source key → entry id, as a JSON object in pieces (joined once with the rest of the record). */
	readonly entriesJson: readonly string[];
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
 * Built to disk (`spill`), the lines go to a spill file every few MB, so a session of any size
 * takes the memory of a few MB of lines and its entry ids.
 */
export class SessionBody {
	#buf: Buffer;
	#at = FRONT;
	/** Where the lines put aside go (built to disk); `#buf` then holds the lines after them. */
	readonly #spill: SpillFile | undefined;
	/** Bytes of lines before `#buf`'s (in the spill file). */
	#base = 0;
	readonly #fresh = new EntryIds();
	/** The items' keys, numbered (perhaps shared with the reader, which numbers the same keys). */
	readonly #keys: KeyTable;
	/** key → the number of its entry's id (`EntryIds.idOf`). */
	readonly #ids = new KeyColumn();
	readonly #idsOf: EntryIdsOf = {
		get: (key) => {
			const n = this.#ids.get(this.#keys.indexOf(key));
			return n < 0 ? undefined : this.#fresh.idOf(n);
		},
	};
	/** Ids given so far (the root's is 0). */
	#idCount = 0;
	/** The item that should be the leaf, as the reader last said (`leaf`), and where its line is (offsets in the lines). */
	#leaf: { key: string; start: number; end: number; parent: boolean } | undefined;
	/** Entry number → its key's number: the record's `entries` are made from these at the end (a string per entry held more than the keys). */
	readonly #entryKeys = new KeyColumn();
	/**
	 * What the `ItemsDigest` hashes, gathered in a buffer and hashed a piece at a time: three
	 * hash updates per item cost more than the hashing.
	 */
	readonly #hash = createHash("sha1");
	readonly #digestBuf = Buffer.allocUnsafe(DIGEST_PIECE + 4096);
	#digestAt = 0;
	/** The end of the last item's digested JSON, hashed with the next item's start. */
	#digestTail = "";
	readonly #blobs: PendingBlob[] = [];
	readonly #rootId: string;
	#lastKey: string | undefined;
	#count = 0;
	#replied = false;

	/**
	 * `capacity`: about how many bytes the lines take (the source's length will do); `spill`: build
	 * to disk, holding only the last few MB of lines; `keys`: the table to number the keys in.
	 */
	constructor(capacity: number, spill = false, keys: KeyTable = new KeyTable()) {
		this.#keys = keys;
		if (spill) {
			this.#spill = new SpillFile();
			capacity = SPILL_BYTES + (SPILL_BYTES >> 2);
		}
		// Its own memory (never Node's shared pool), so it can be handed to another thread whole.
		this.#buf = Buffer.allocUnsafeSlow(FRONT + Math.max(4096, capacity));
		this.#rootId = this.#fresh.idOf(this.#idCount++);
	}

	/** Frees the spill file, if any (once `finish`'s body is written, or when the build is given up). */
	close(): void {
		this.#spill?.close();
	}

	/** The reader says which item is now the main line's leaf (added now or later): `finish` moves it last if it must. */
	leaf(key: string): void {
		this.#leaf = { key, start: -1, end: -1, parent: false };
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
		const parentId = item.parent === null ? this.#rootId : (this.#idsOf.get(item.parent) ?? this.#rootId);
		const leaf = this.#leaf;
		if (leaf !== undefined && item.parent === leaf.key) leaf.parent = true;
		const number = this.#idCount++;
		const id = this.#fresh.idOf(number);
		const start = this.#at;
		const shared = sharedPayload(item.body);
		const key = JSON.stringify(item.key);
		if (shared && persistsAsIs(shared.json)) {
			// The entry's JSON is the payload's, already made: no entry object, no transform walk.
			const [head] = sharedParts(item, shared);
			// Written in two pieces: one string of both would be a copy of the payload's JSON.
			this.#write(`${linePrefix(shared.type, id, parentId, item.timestamp)}${shared.entryHead}`);
			const from = this.#at;
			this.#write(shared.json);
			this.#digestText(`${this.#digestTail}${key}\n${head}`);
			this.#digestBytes(from, this.#at);
			this.#digestTail = "}]\n";
			this.#endLine("}");
		} else {
			const entry = entryOfItem(item, id, parentId, this.#idsOf);
			const parts = shared ? sharedParts(item, shared) : [itemJson(item)];
			this.#digestText(`${this.#digestTail}${key}\n${parts.join("")}\n`);
			this.#digestTail = "";
			this.#write(`${serializeEntry(prepareForPersistence(entry, this.#blobs))}\n`);
		}
		const keyNumber = this.#keys.add(item.key);
		this.#ids.set(keyNumber, number);
		if (leaf !== undefined && item.key === leaf.key) {
			leaf.start = this.#base + start - FRONT;
			leaf.end = this.#base + this.#at - FRONT;
		}
		this.#entryKeys.set(number, keyNumber);
		this.#lastKey = item.key;
		this.#count++;
		if (item.body.kind === "message" && item.body.message.role === "assistant") this.#replied = true;
		if (this.#spill && this.#at - FRONT >= SPILL_BYTES) this.#putAside(this.#spill);
	}

	/** The record's `entries` as JSON, made from the keys now, in pieces (to be joined once with the rest of the record). */
	#entriesJson(): string[] {
		const pieces: string[] = [];
		for (let from = 1; from < this.#idCount; from += ENTRIES_PER_PIECE) {
			const members: string[] = [];
			for (let n = from; n < Math.min(this.#idCount, from + ENTRIES_PER_PIECE); n++)
				members.push(`${JSON.stringify(this.#keys.keyAt(this.#entryKeys.get(n)))}:"${this.#fresh.idOf(n)}"`);
			pieces.push(`${from === 1 ? "" : ","}${members.join(",")}`);
		}
		return ["{", ...pieces, "}"];
	}

	/** Moves the lines in memory to the spill file. */
	#putAside(spill: SpillFile): void {
		spill.append(this.#buf.subarray(FRONT, this.#at));
		this.#base += this.#at - FRONT;
		this.#at = FRONT;
	}

	/** Ends the line with one ASCII character and the newline. */
	#endLine(last: "}"): void {
		if (this.#buf.length - this.#at < 2) this.#grow(this.#at + 2);
		this.#buf[this.#at++] = last.charCodeAt(0);
		this.#buf[this.#at++] = 0x0a;
	}

	#write(text: string): void {
		// A UTF-16 unit is at most 3 bytes of UTF-8.
		if (this.#buf.length - this.#at < text.length * 3) this.#grow(this.#at + text.length * 3);
		this.#at += this.#buf.write(text, this.#at);
	}

	/** Adds text to what the digest hashes (`ItemsDigest`'s bytes: key line, item JSON, newline). */
	#digestText(text: string): void {
		if (text.length * 3 > this.#digestBuf.length - this.#digestAt) {
			this.#digestFlush();
			if (text.length * 3 > this.#digestBuf.length) {
				this.#hash.update(text);
				return;
			}
		}
		this.#digestAt += this.#digestBuf.write(text, this.#digestAt);
		if (this.#digestAt > DIGEST_PIECE) this.#digestFlush();
	}

	/** Adds the bytes written at [from, to) to what the digest hashes. */
	#digestBytes(from: number, to: number): void {
		if (to - from > this.#digestBuf.length - this.#digestAt) {
			this.#digestFlush();
			this.#hash.update(this.#buf.subarray(from, to));
			return;
		}
		this.#digestBuf.set(this.#buf.subarray(from, to), this.#digestAt);
		this.#digestAt += to - from;
	}

	#digestFlush(): void {
		if (this.#digestAt === 0) return;
		this.#hash.update(this.#digestBuf.subarray(0, this.#digestAt));
		this.#digestAt = 0;
	}

	#grow(needed: number): void {
		const next = Buffer.allocUnsafeSlow(Math.max(needed, this.#buf.length * 2));
		this.#buf.copy(next, 0, 0, this.#at);
		this.#buf = next;
	}

	/** Whether `finish` must move the leaf's line last: it is not last and has no children (as `appendOrder` says). */
	#leafToMove(leafKey: string | undefined): { start: number; end: number } | undefined {
		const leaf = this.#leaf;
		if (leafKey === undefined || leafKey === this.#lastKey || leaf?.key !== leafKey) return undefined;
		return leaf.parent || leaf.start < 0 ? undefined : leaf;
	}

	/**
	 * The session's bytes: the header, the root entry (`root`, the provenance) and every item's
	 * line, with `leafKey`'s line moved last when it has no children (so it is the leaf on reload).
	 * `leafKey` must be the last the reader named (`leaf`).
	 */
	finish(header: SessionHeader, root: { timestamp: string; data: unknown }, leafKey?: string): SessionBytes {
		const move = this.#leafToMove(leafKey);
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
		this.#digestText(this.#digestTail);
		this.#digestFlush();
		const itemsDigest = this.#hash.digest("base64url");
		const entriesJson = this.#entriesJson();
		const spill = this.#spill;
		if (spill) return { body: this.#spilledBody(spill, head, move), entriesJson, itemsDigest, blobs: this.#blobs };
		if (move) this.#moveLast(move.start + FRONT, move.end + FRONT);
		// The lines before the items usually fit in the room left in front of them.
		let bytes: Uint8Array;
		if (head.length <= FRONT) {
			head.copy(this.#buf, FRONT - head.length);
			bytes = this.#buf.subarray(FRONT - head.length, this.#at);
		} else {
			bytes = new Uint8Array(head.length + this.#at - FRONT);
			bytes.set(head, 0);
			bytes.set(this.#buf.subarray(FRONT, this.#at), head.length);
		}
		return { body: bytes, entriesJson, itemsDigest, blobs: this.#blobs };
	}

	#moveLast(start: number, end: number): void {
		const line = Buffer.from(this.#buf.subarray(start, end));
		this.#buf.copyWithin(start, end, this.#at);
		line.copy(this.#buf, this.#at - line.length);
	}

	/** The lines of a session built to disk: `head`, the spill file's and `#buf`'s lines, the leaf's line last if `move`. */
	#spilledBody(spill: SpillFile, head: Buffer, move: { start: number; end: number } | undefined): SpilledBody {
		const buf = this.#buf.subarray(FRONT, this.#at);
		const inFile = spill.size;
		/** Hands the lines at [from, to) on, from the spill file and then from memory. */
		const range = (from: number, to: number, put: (bytes: Uint8Array) => void) => {
			if (from >= to) return;
			if (from < inFile) spill.copy(from, Math.min(to, inFile), put);
			if (to > inFile) put(buf.subarray(Math.max(from, inFile) - inFile, to - inFile));
		};
		const total = inFile + buf.length;
		return {
			writeTo: (put) => {
				put(head);
				if (!move) return range(0, total, put);
				range(0, move.start, put);
				range(move.end, total, put);
				range(move.start, move.end, put);
			},
			close: () => this.close(),
		};
	}
}
