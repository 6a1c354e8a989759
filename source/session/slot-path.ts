import type { EntryTable } from "./entry-table.js";
import { type EntrySlot, residentEntry } from "./lazy-entry.js";
import type { StoredEntry } from "./types.js";

/** A read-only run of entries: an array, or a `SlotPath` that makes each entry when asked for. */
export interface EntrySlots extends Iterable<EntrySlot> {
	readonly length: number;
	at(index: number): EntrySlot | undefined;
}

/** Positions 0 … n - 1, shared by every view of a whole table (grown when a bigger one is asked for). */
let identity = new Int32Array(0);

function identityOf(length: number): Int32Array {
	if (identity.length < length) {
		identity = new Int32Array(Math.max(length, identity.length * 2));
		for (let i = 0; i < identity.length; i++) identity[i] = i;
	}
	return identity;
}

/**
 * A path of the entry table as positions: an entry is made when asked for, so a path of half a
 * million skeleton rows is 2 MB of numbers, not half a million objects kept alive.
 */
export class SlotPath implements EntrySlots {
	readonly #table: EntryTable;
	readonly #positions: Int32Array;
	readonly #length: number;
	/** Set once `with` wrote past `#length` in the shared buffer: the next `with` copies. */
	#extended = false;

	constructor(table: EntryTable, positions: Int32Array, length = positions.length) {
		this.#table = table;
		this.#positions = positions;
		this.#length = length;
	}

	/** Every entry of the table, in insertion order, as one long path. */
	static all(table: EntryTable): SlotPath {
		const path = new SlotPath(table, identityOf(table.size), table.size);
		// The positions are shared by every whole-table view: never written past the end.
		path.#extended = true;
		return path;
	}

	/** Number of entries on the path. */
	get length(): number {
		return this.#length;
	}

	/** The path's `index`-th entry (negative: from the end). */
	at(index: number): EntrySlot | undefined {
		const at = index < 0 ? this.#length + index : index;
		return at >= 0 && at < this.#length ? this.#table.slot(this.#positions[at]!) : undefined;
	}

	/** The type of the path's `index`-th entry, without making it. */
	type(index: number): string {
		return this.#table.type(this.#positions[index]!);
	}

	/** The path's `index`-th entry if its body is in memory now, without making a view of it. */
	resident(index: number): StoredEntry | undefined {
		return this.#table.resident(this.#positions[index]!);
	}

	*[Symbol.iterator](): Iterator<EntrySlot> {
		for (let i = 0; i < this.#length; i++) yield this.#table.slot(this.#positions[i]!);
	}

	/**
	 * The entries on the path whose bodies are in memory, in path order. A big session's path is
	 * half a million skeleton rows of which a few are pinned: those are found without a view per row.
	 */
	residents(): StoredEntry[] {
		const table = this.#table;
		const columns = table.columns;
		const rows = columns?.size ?? 0;
		const pinned = new Uint8Array(rows);
		if (columns) for (const [row] of columns.pins()) pinned[row] = 1;
		const found: StoredEntry[] = [];
		for (let i = 0; i < this.#length; i++) {
			const at = this.#positions[i]!;
			if (at < rows) {
				if (pinned[at] === 1) found.push(columns!.pinned(at)!);
				continue;
			}
			const entry = residentEntry(table.slot(at));
			if (entry) found.push(entry);
		}
		return found;
	}

	/** True when some entry passes `test` (each made for the test and dropped). */
	some(test: (slot: EntrySlot) => boolean): boolean {
		for (let i = 0; i < this.#length; i++) if (test(this.#table.slot(this.#positions[i]!))) return true;
		return false;
	}

	/** The entries, each mapped. */
	map<T>(each: (slot: EntrySlot, index: number) => T): T[] {
		const mapped: T[] = new Array(this.#length);
		for (let i = 0; i < this.#length; i++) mapped[i] = each(this.#table.slot(this.#positions[i]!), i);
		return mapped;
	}

	/** This path with the entry at table position `position` after its last (an append to the leaf). */
	with(position: number): SlotPath {
		let buffer = this.#positions;
		// The buffer is shared with the path this one grew from; only one of them may write past the end.
		if (this.#extended || this.#length >= buffer.length) {
			buffer = new Int32Array(Math.max(16, this.#length + (this.#length >> 1) + 1));
			buffer.set(this.#positions.subarray(0, this.#length));
		}
		buffer[this.#length] = position;
		if (buffer === this.#positions) this.#extended = true;
		return new SlotPath(this.#table, buffer, this.#length + 1);
	}
}
