import { type EntrySlot, isLazy, LazyEntry, type SkeletonColumns, UNKNOWN_PARENT } from "./lazy-entry.js";

/** Position of "no entry": a root's parent, a missing parent, a null leaf. */
export const NO_POSITION = -1;

/**
 * A session's entries in insertion order with each one's parent as a position, so a path is a walk
 * over numbers. The id → position map is only built when an id has to be looked up: a big session
 * opened from its cached skeleton (parents already positions) draws its first frame without it.
 */
export class EntryTable {
	readonly slots: EntrySlot[];
	#parents: Int32Array;
	#positions: Map<string, number> | undefined;
	/**
	 * How many first slots are the rows 0, 1, 2… of one skeleton's columns (a warm open's entries):
	 * what the columns hold of those (type, kind) is read from their typed arrays, slots untouched.
	 */
	readonly #run: { readonly columns: SkeletonColumns; readonly length: number } | undefined;

	constructor(slots: EntrySlot[]) {
		this.slots = slots;
		this.#parents = new Int32Array(Math.max(16, slots.length + (slots.length >> 2)));
		const unknown: number[] = [];
		const first = slots[0];
		const runColumns = first instanceof LazyEntry && first.row === 0 ? first.columns : undefined;
		let runLength = 0;
		// Skeletons remember what is worked out here: caching them again (after a first open, an
		// append) needs no id map, and a warm open finds every parent already known.
		for (let i = 0; i < slots.length; i++) {
			const slot = slots[i]!;
			const lazy = isLazy(slot);
			if (runLength === i && lazy && slot.row === i && slot.columns === runColumns) runLength = i + 1;
			const cached = lazy ? slot.parentAt : UNKNOWN_PARENT;
			if (cached !== UNKNOWN_PARENT) {
				this.#parents[i] = cached;
				continue;
			}
			if (slot.parentId === null) this.#parents[i] = NO_POSITION;
			// Most entries follow their parent: no lookup needed for those.
			else if (i > 0 && slots[i - 1]!.id === slot.parentId) this.#parents[i] = i - 1;
			else {
				unknown.push(i);
				continue;
			}
			if (lazy) slot.parentAt = this.#parents[i]!;
		}
		for (const i of unknown) {
			const slot = slots[i]!;
			this.#parents[i] = this.position(slot.parentId!) ?? NO_POSITION;
			if (isLazy(slot)) slot.parentAt = this.#parents[i]!;
		}
		this.#run = runColumns && runLength > 0 ? { columns: runColumns, length: runLength } : undefined;
	}

	/** The first slots that are rows 0, 1, 2… of one skeleton's columns, in order (undefined: none). */
	columnRun(): { readonly columns: SkeletonColumns; readonly length: number } | undefined {
		return this.#run;
	}

	/** Number of entries. */
	get size(): number {
		return this.slots.length;
	}

	/** Where the entry with this id is (the id index is built on the first call). */
	position(id: string): number | undefined {
		if (!this.#positions) {
			const positions = new Map<string, number>();
			const { slots } = this;
			for (let i = 0; i < slots.length; i++) positions.set(slots[i]!.id, i);
			this.#positions = positions;
		}
		return this.#positions.get(id);
	}

	/** Position of the parent of the entry at `position` (`NO_POSITION`: a root, or a parent not in the file). */
	parentOf(position: number): number {
		return this.#parents[position]!;
	}

	/**
	 * The positions of the entries of type `type`, in order. A skeleton's type is a code in its
	 * columns: checkpoints (custom entries) are found among half a million entries without a string
	 * made per entry.
	 */
	positionsOfType(type: string): number[] {
		const found: number[] = [];
		const { slots } = this;
		let columns: SkeletonColumns | undefined;
		let code = -1;
		let from = 0;
		const run = this.#run;
		if (run) {
			const wanted = run.columns.typeCode(type);
			const types = run.columns.typeColumn();
			for (let p = 0; p < run.length; p++) if (types[p] === wanted) found.push(p);
			from = run.length;
		}
		for (let p = from; p < slots.length; p++) {
			const slot = slots[p]!;
			if (slot instanceof LazyEntry) {
				if (slot.columns !== columns) {
					columns = slot.columns;
					code = columns.typeCode(type);
				}
				if (columns.isType(slot.row, code)) found.push(p);
			} else if (slot.type === type) found.push(p);
		}
		return found;
	}

	/** Every entry's parent position (`NO_POSITION`: a root), as the table holds them: a view, not a copy. */
	parentPositions(): Int32Array {
		return this.#parents.subarray(0, this.slots.length);
	}

	/** Adds an entry whose parent is at `parent` (`NO_POSITION`: a root); returns its position. */
	push(slot: EntrySlot, parent: number): number {
		const at = this.slots.length;
		if (at >= this.#parents.length) {
			const grown = new Int32Array(this.#parents.length * 2);
			grown.set(this.#parents);
			this.#parents = grown;
		}
		this.slots.push(slot);
		this.#parents[at] = parent;
		this.#positions?.set(slot.id, at);
		return at;
	}

	/**
	 * The path root → the entry at `position`, walking parents and reversing once. A parent cycle in
	 * a damaged file stops the walk at the first entry seen twice instead of looping forever.
	 */
	path(position: number): EntrySlot[] {
		return this.pathPositions(position).map((at) => this.slots[at]!);
	}

	/** `path` as positions, root first. */
	pathPositions(position: number): number[] {
		const positions: number[] = [];
		let current = position;
		// A path can be no longer than the number of entries; a longer walk means a parent cycle.
		for (let steps = this.slots.length; current !== NO_POSITION && steps >= 0; steps--) {
			positions.push(current);
			current = this.#parents[current]!;
		}
		if (current === NO_POSITION) return positions.reverse();
		const seen = new Set<number>();
		const kept: number[] = [];
		for (const at of positions) {
			if (seen.has(at)) break;
			seen.add(at);
			kept.push(at);
		}
		return kept.reverse();
	}
}
