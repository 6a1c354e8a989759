import { type EntrySlot, isLazy, LazyEntry, residentEntry, SkeletonColumns, UNKNOWN_PARENT } from "./lazy-entry.js";
import { SlotPath } from "./slot-path.js";
import type { StoredEntry } from "./types.js";

/** Position of "no entry": a root's parent, a missing parent, a null leaf. */
export const NO_POSITION = -1;

/**
 * A session's entries in insertion order with each one's parent as a position, so a path is a walk
 * over numbers. A big session's entries are rows of its skeleton columns (positions 0 … rows - 1,
 * each viewed as a `LazyEntry` made when asked for: half a million objects made at open were most of
 * a warm open's time and garbage), then the entries added since, as objects. The id → position map
 * is only built when an id has to be looked up.
 */
export class EntryTable {
	readonly #columns: SkeletonColumns | undefined;
	/** How many leading positions are rows of `#columns`. */
	readonly #rows: number;
	/** Entries from position `#rows` on. */
	readonly #added: EntrySlot[];
	#parents: Int32Array;
	#positions: Map<string, number> | undefined;

	constructor(entries: readonly EntrySlot[] | SkeletonColumns) {
		const columns = entries instanceof SkeletonColumns ? entries : undefined;
		this.#columns = columns;
		this.#rows = columns ? columns.size : 0;
		this.#added = columns ? [] : [...(entries as readonly EntrySlot[])];
		const size = this.size;
		this.#parents = new Int32Array(Math.max(16, size + (size >> 2)));
		if (columns) this.#rowParents(columns);
		else this.#slotParents(this.#added);
	}

	/** Parents of a skeleton's rows: known positions (a warm open knows all), else the row before or an id lookup. */
	#rowParents(columns: SkeletonColumns): void {
		const unknown: number[] = [];
		for (let i = 0; i < this.#rows; i++) {
			const cached = columns.parentAt(i);
			if (cached !== UNKNOWN_PARENT) {
				this.#parents[i] = cached;
				continue;
			}
			const parentId = columns.parentId(i);
			if (parentId === null) this.#parents[i] = NO_POSITION;
			else if (i > 0 && columns.hasId(i - 1, parentId)) this.#parents[i] = i - 1;
			else {
				unknown.push(i);
				continue;
			}
			// Remembered: caching the skeleton again needs no id map.
			columns.setParentAt(i, this.#parents[i]!);
		}
		for (const i of unknown) {
			this.#parents[i] = this.position(columns.parentId(i)!) ?? NO_POSITION;
			columns.setParentAt(i, this.#parents[i]!);
		}
	}

	#slotParents(slots: readonly EntrySlot[]): void {
		const unknown: number[] = [];
		for (let i = 0; i < slots.length; i++) {
			const slot = slots[i]!;
			const cached = isLazy(slot) ? slot.parentAt : UNKNOWN_PARENT;
			if (cached !== UNKNOWN_PARENT) this.#parents[i] = cached;
			else if (slot.parentId === null) this.#parents[i] = NO_POSITION;
			// Most entries follow their parent: no lookup needed for those.
			else if (i > 0 && slots[i - 1]!.id === slot.parentId) this.#parents[i] = i - 1;
			else unknown.push(i);
		}
		for (const i of unknown) this.#parents[i] = this.position(slots[i]!.parentId!) ?? NO_POSITION;
	}

	/** Number of entries. */
	get size(): number {
		return this.#rows + this.#added.length;
	}

	/** The skeleton columns whose rows are the first entries, if the session was opened with its bodies on disk. */
	get columns(): SkeletonColumns | undefined {
		return this.#columns;
	}

	/** The entry at `position` (a skeleton row's view is made now: keep it only as long as needed). */
	slot(position: number): EntrySlot {
		return position < this.#rows ? new LazyEntry(this.#columns!, position) : this.#added[position - this.#rows]!;
	}

	/** The id of the entry at `position`. */
	id(position: number): string {
		return position < this.#rows ? this.#columns!.id(position) : this.#added[position - this.#rows]!.id;
	}

	/** The type of the entry at `position`. */
	type(position: number): string {
		return position < this.#rows ? this.#columns!.type(position) : this.#added[position - this.#rows]!.type;
	}

	/** The entry at `position` if its body is in memory now (a skeleton row's view is not made). */
	resident(position: number): StoredEntry | undefined {
		return position < this.#rows ? this.#columns!.pinned(position) : residentEntry(this.#added[position - this.#rows]!);
	}

	/** True when the entry at `position` has this id (a skeleton row's id string is not made). */
	hasId(position: number, id: string): boolean {
		return position < this.#rows ? this.#columns!.hasId(position, id) : this.#added[position - this.#rows]!.id === id;
	}

	/** The first entries as rows 0, 1, 2… of one skeleton's columns (undefined: none). */
	columnRun(): { readonly columns: SkeletonColumns; readonly length: number } | undefined {
		return this.#columns && this.#rows > 0 ? { columns: this.#columns, length: this.#rows } : undefined;
	}

	/**
	 * The positions of the entries of type `type`, in order. A skeleton's type is a code in its
	 * columns: checkpoints (custom entries) are found among half a million entries without a string
	 * made per entry.
	 */
	positionsOfType(type: string): number[] {
		const found: number[] = [];
		if (this.#columns) {
			const wanted = this.#columns.typeCode(type);
			const types = this.#columns.typeColumn();
			for (let p = 0; p < this.#rows; p++) if (types[p] === wanted) found.push(p);
		}
		for (let i = 0; i < this.#added.length; i++) if (this.#added[i]!.type === type) found.push(this.#rows + i);
		return found;
	}

	/** Every entry's parent position (`NO_POSITION`: a root), as the table holds them: a view, not a copy. */
	parentPositions(): Int32Array {
		return this.#parents.subarray(0, this.size);
	}

	/** Every entry, in order (a big session's views are made here: for callers that need them all). */
	slots(): EntrySlot[] {
		const all: EntrySlot[] = new Array(this.size);
		for (let i = 0; i < all.length; i++) all[i] = this.slot(i);
		return all;
	}

	/** Where the entry with this id is (the id index is built on the first call). */
	position(id: string): number | undefined {
		if (!this.#positions) {
			const positions = new Map<string, number>();
			for (let i = 0; i < this.size; i++) positions.set(this.id(i), i);
			this.#positions = positions;
		}
		return this.#positions.get(id);
	}

	/** Position of the parent of the entry at `position` (`NO_POSITION`: a root, or a parent not in the file). */
	parentOf(position: number): number {
		return this.#parents[position]!;
	}

	/** Adds an entry whose parent is at `parent` (`NO_POSITION`: a root); returns its position. */
	push(slot: EntrySlot, parent: number): number {
		const at = this.size;
		if (at >= this.#parents.length) {
			const grown = new Int32Array(this.#parents.length * 2);
			grown.set(this.#parents);
			this.#parents = grown;
		}
		this.#added.push(slot);
		this.#parents[at] = parent;
		this.#positions?.set(slot.id, at);
		return at;
	}

	/**
	 * The path root → the entry at `position`, walking parents and reversing once. A parent cycle in
	 * a damaged file stops the walk at the first entry seen twice instead of looping forever.
	 */
	path(position: number): SlotPath {
		return new SlotPath(this, this.pathPositions(position));
	}

	/** `path` as positions, root first. */
	pathPositions(position: number): Int32Array {
		let length = 0;
		// A path can be no longer than the number of entries; a longer walk means a parent cycle.
		for (let at = position, steps = this.size; at !== NO_POSITION && steps >= 0; steps--) {
			length++;
			at = this.#parents[at]!;
		}
		const positions = new Int32Array(length);
		let current = position;
		for (let i = length - 1; i >= 0; i--) {
			positions[i] = current;
			current = this.#parents[current]!;
		}
		if (current === NO_POSITION) return positions;
		// A cycle: keep the walk from the start up to the first entry seen twice, root first.
		const seen = new Set<number>();
		const kept: number[] = [];
		for (let i = length - 1; i >= 0; i--) {
			const at = positions[i]!;
			if (seen.has(at)) break;
			seen.add(at);
			kept.push(at);
		}
		return Int32Array.from(kept.reverse());
	}
}
