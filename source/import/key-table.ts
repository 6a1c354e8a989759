/*
 * Source keys (Claude Code uuids, Codex line keys) numbered in the order they are first seen, held
 * compactly: their characters in one byte arena, an open-addressing table of their numbers, and no
 * JavaScript string or Map entry per key. A big source has millions of keys, and a Map of them held
 * more memory than everything else an import keeps (a uuid string and its Map entry are ~100 bytes;
 * here ~60, in pages that grow without copying).
 */

const EMPTY = 0;

/** Numbers are kept in pages of this many: growing never copies them, and leaves at most a page unused. */
const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
/** Keys' characters are kept in pages of this many bytes (a key never spans two). */
const ARENA_PAGE = 1 << 20;
/** Longer keys (rare) are kept as they are. */
const MAX_ARENA_KEY = 4096;

/** Int32 numbers by index, in pages allocated as they are first written; unwritten ones read as `fill`. */
class PagedInts {
	readonly #pages: (Int32Array | undefined)[] = [];
	readonly #fill: number;

	constructor(fill: number) {
		this.#fill = fill;
	}

	get(index: number): number {
		const page = this.#pages[index >>> PAGE_BITS];
		return page === undefined ? this.#fill : page[index & (PAGE - 1)]!;
	}

	set(index: number, value: number): void {
		const at = index >>> PAGE_BITS;
		let page = this.#pages[at];
		if (page === undefined) {
			page = new Int32Array(PAGE);
			if (this.#fill !== 0) page.fill(this.#fill);
			// Kept a dense array (holes make every later access slower).
			for (let i = this.#pages.length; i < at; i++) this.#pages.push(undefined);
			this.#pages[at] = page;
		}
		page[index & (PAGE - 1)] = value;
	}
}

/** A set of keys, each given a number (0, 1, 2, … in the order added). */
export class KeyTable {
	readonly #arena: Uint8Array[] = [];
	/** Bytes used in the last arena page. */
	#used = ARENA_PAGE;
	/** Key number → where its characters are (page × ARENA_PAGE + offset) and how many; length -1: kept in `#long`. */
	readonly #starts = new PagedInts(0);
	readonly #lengths = new PagedInts(0);
	readonly #hashes = new PagedInts(0);
	/** Open addressing: key number + 1, or EMPTY. */
	#slots = new Int32Array(1 << 11);
	#count = 0;
	/** Keys with a character past one byte, or very long (rare): kept as they are. */
	readonly #wide = new Map<string, number>();
	readonly #long = new Map<number, string>();

	/** How many keys. */
	get size(): number {
		return this.#count;
	}

	/** The number of a key, or -1. */
	indexOf(key: string): number {
		const hash = arenaHash(key);
		if (hash === undefined) return this.#wide.get(key) ?? -1;
		const mask = this.#slots.length - 1;
		for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
			const held = this.#slots[slot]!;
			if (held === EMPTY) return -1;
			if (this.#hashes.get(held - 1) === hash && this.#equals(held - 1, key)) return held - 1;
		}
	}

	/** Adds a key (if new); returns its number. */
	add(key: string): number {
		const hash = arenaHash(key);
		if (hash === undefined) {
			const known = this.#wide.get(key);
			if (known !== undefined) return known;
			const index = this.#count++;
			this.#lengths.set(index, -1);
			this.#wide.set(key, index);
			this.#long.set(index, key);
			return index;
		}
		const mask = this.#slots.length - 1;
		let slot = hash & mask;
		for (; ; slot = (slot + 1) & mask) {
			const held = this.#slots[slot]!;
			if (held === EMPTY) break;
			if (this.#hashes.get(held - 1) === hash && this.#equals(held - 1, key)) return held - 1;
		}
		const index = this.#append(key, hash);
		this.#slots[slot] = index + 1;
		if (this.#count * 2 > this.#slots.length) this.#rehash();
		return index;
	}

	/** The key numbered `index`. */
	keyAt(index: number): string {
		const length = this.#lengths.get(index);
		if (length < 0) return this.#long.get(index)!;
		const start = this.#starts.get(index);
		const page = this.#arena[Math.floor(start / ARENA_PAGE)]!;
		const offset = start % ARENA_PAGE;
		return String.fromCharCode(...page.subarray(offset, offset + length));
	}

	#equals(index: number, key: string): boolean {
		if (this.#lengths.get(index) !== key.length) return false;
		const start = this.#starts.get(index);
		const page = this.#arena[Math.floor(start / ARENA_PAGE)]!;
		const offset = start % ARENA_PAGE;
		for (let i = 0; i < key.length; i++) if (page[offset + i] !== key.charCodeAt(i)) return false;
		return true;
	}

	#append(key: string, hash: number): number {
		const index = this.#count++;
		if (this.#used + key.length > ARENA_PAGE) {
			this.#arena.push(new Uint8Array(ARENA_PAGE));
			this.#used = 0;
		}
		const page = this.#arena[this.#arena.length - 1]!;
		this.#starts.set(index, (this.#arena.length - 1) * ARENA_PAGE + this.#used);
		this.#lengths.set(index, key.length);
		this.#hashes.set(index, hash);
		for (let i = 0; i < key.length; i++) page[this.#used + i] = key.charCodeAt(i);
		this.#used += key.length;
		return index;
	}

	#rehash(): void {
		const slots = new Int32Array(this.#slots.length * 2);
		const mask = slots.length - 1;
		for (let index = 0; index < this.#count; index++) {
			// A key kept as it is is not in the slots.
			if (this.#lengths.get(index) < 0) continue;
			let slot = this.#hashes.get(index) & mask;
			while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
			slots[slot] = index + 1;
		}
		this.#slots = slots;
	}
}

/** A number per key of a `KeyTable` (or -1), in pages. */
export class KeyColumn {
	readonly #values = new PagedInts(-1);

	/** The number of key `index` (-1 for none, and for index -1). */
	get(index: number): number {
		return index < 0 ? -1 : this.#values.get(index);
	}

	set(index: number, value: number): void {
		this.#values.set(index, value);
	}
}

/** key → number, held compactly (see `KeyTable`). */
export class KeyMap {
	readonly #keys = new KeyTable();
	readonly #values = new KeyColumn();

	get(key: string): number | undefined {
		const index = this.#keys.indexOf(key);
		if (index < 0) return undefined;
		const value = this.#values.get(index);
		return value < 0 ? undefined : value;
	}

	/** Sets a key's number (≥ 0). */
	set(key: string, value: number): void {
		this.#values.set(this.#keys.add(key), value);
	}

	has(key: string): boolean {
		return this.get(key) !== undefined;
	}
}

/** Strings numbered as they are first seen (model names, tool names: few, repeated). */
export class Interned {
	readonly #numbers = new Map<string, number>();
	readonly #strings: string[] = [];

	numberOf(value: string): number {
		let number = this.#numbers.get(value);
		if (number === undefined) {
			number = this.#strings.length;
			this.#strings.push(value);
			this.#numbers.set(value, number);
		}
		return number;
	}

	at(number: number): string {
		return this.#strings[number]!;
	}
}

/** FNV-1a of a key kept in the arena (every character fits in a byte, not too long); undefined for any other. */
function arenaHash(key: string): number | undefined {
	if (key.length > MAX_ARENA_KEY) return undefined;
	let hash = 0x811c9dc5;
	for (let i = 0; i < key.length; i++) {
		const code = key.charCodeAt(i);
		if (code > 0xff) return undefined;
		hash = Math.imul(hash ^ code, 0x01000193);
	}
	return hash | 0;
}

/** key → key (a line's uuid → the item it was read into, a call id → its tool's name), held compactly. */
export class KeyToKey {
	readonly #keys = new KeyMap();
	/** The values, each held once. */
	readonly #values = new KeyTable();

	get(key: string): string | undefined {
		const value = this.#keys.get(key);
		return value === undefined ? undefined : this.#values.keyAt(value);
	}

	set(key: string, value: string): void {
		this.#keys.set(key, this.#values.add(value));
	}

	has(key: string): boolean {
		return this.#keys.has(key);
	}
}
