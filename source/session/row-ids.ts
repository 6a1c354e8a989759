/** What `RowIds` needs of a skeleton: its ids by row, compared in place. */
export interface IdRows {
	readonly size: number;
	id(row: number): string;
	hasId(row: number, id: string): boolean;
}

/** FNV-1a over the id's UTF-16 code units. */
function hashOf(id: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
	return hash >>> 0;
}

/**
 * The ids of a skeleton's rows as a hash table of row numbers, for the loader's duplicate-id check:
 * an id is compared with the rows of its bucket in place. A `Set` of half a million id strings was
 * 20 MB of a first open's peak (30 while it grew); this is 4 bytes a slot and 4 a row.
 */
export class RowIds {
	readonly #rows: IdRows;
	/** Row + 1 of each slot (0: empty); a power of two, at most half full. */
	#slots = new Int32Array(1024);
	/** Each added row's hash, to grow the table without making id strings. */
	#hashes = new Int32Array(1024);
	#count = 0;

	/** Indexes the rows `rows` already has (a resumed skeleton); later rows come through `add`. */
	constructor(rows: IdRows) {
		this.#rows = rows;
		for (let row = 0; row < rows.size; row++) this.add(row, rows.id(row));
	}

	/** True when a row added so far has this id. */
	has(id: string): boolean {
		const mask = this.#slots.length - 1;
		for (let at = hashOf(id) & mask; ; at = (at + 1) & mask) {
			const slot = this.#slots[at]!;
			if (slot === 0) return false;
			if (this.#rows.hasId(slot - 1, id)) return true;
		}
	}

	/** Adds row `row`, whose id is `id`. */
	add(row: number, id: string): void {
		if (row >= this.#hashes.length) {
			const hashes = new Int32Array(Math.max(row + 1, this.#hashes.length * 2));
			hashes.set(this.#hashes);
			this.#hashes = hashes;
		}
		this.#hashes[row] = hashOf(id) | 0;
		if (2 * (this.#count + 1) > this.#slots.length) this.#grow();
		this.#place(row);
		this.#count++;
	}

	#place(row: number): void {
		const mask = this.#slots.length - 1;
		let at = (this.#hashes[row]! >>> 0) & mask;
		while (this.#slots[at] !== 0) at = (at + 1) & mask;
		this.#slots[at] = row + 1;
	}

	#grow(): void {
		const old = this.#slots;
		this.#slots = new Int32Array(old.length * 2);
		for (const slot of old) if (slot !== 0) this.#place(slot - 1);
	}
}
