/*
 * Source keys (Claude Code uuids, Codex line keys) numbered in the order they are first seen, held
 * compactly: their characters in one byte arena, an open-addressing table of their numbers, and no
 * JavaScript string or Map entry per key. A big source has millions of keys, and a Map of them held
 * more memory than everything else an import keeps (a uuid string and its Map entry are ~100 bytes;
 * here ~50).
 */

const EMPTY = 0;

/** A set of keys, each given a number (0, 1, 2, … in the order added). */
export class KeyTable {
	#arena = new Uint8Array(1 << 16);
	#used = 0;
	/** Key number → where its characters start in the arena (they end where the next key's start). */
	#starts = new Int32Array(1 << 10);
	#hashes = new Int32Array(1 << 10);
	/** Open addressing: key number + 1, or EMPTY. */
	#slots = new Int32Array(1 << 11);
	#count = 0;
	/** Keys with a character past one byte (rare): kept as they are. */
	readonly #wide = new Map<string, number>();

	/** How many keys. */
	get size(): number {
		return this.#count;
	}

	/** The number of a key, or -1. */
	indexOf(key: string): number {
		const hash = latin1Hash(key);
		if (hash === undefined) return this.#wide.get(key) ?? -1;
		const mask = this.#slots.length - 1;
		for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
			const held = this.#slots[slot]!;
			if (held === EMPTY) return -1;
			if (this.#hashes[held - 1] === hash && this.#equals(held - 1, key)) return held - 1;
		}
	}

	/** Adds a key (if new); returns its number. */
	add(key: string): number {
		const hash = latin1Hash(key);
		if (hash === undefined) {
			const known = this.#wide.get(key);
			if (known !== undefined) return known;
			const index = this.#append("", 0);
			this.#wide.set(key, index);
			return index;
		}
		const mask = this.#slots.length - 1;
		let slot = hash & mask;
		for (; ; slot = (slot + 1) & mask) {
			const held = this.#slots[slot]!;
			if (held === EMPTY) break;
			if (this.#hashes[held - 1] === hash && this.#equals(held - 1, key)) return held - 1;
		}
		const index = this.#append(key, hash);
		this.#slots[slot] = index + 1;
		if (this.#count * 2 > this.#slots.length) this.#rehash();
		return index;
	}

	/** The key numbered `index`. */
	keyAt(index: number): string {
		const start = this.#starts[index]!;
		const end = index + 1 < this.#count ? this.#starts[index + 1]! : this.#used;
		if (start === end) for (const [key, at] of this.#wide) if (at === index) return key;
		let key = "";
		// In pieces: String.fromCharCode takes its arguments on the stack.
		for (let at = start; at < end; at += 4096)
			key += String.fromCharCode(...this.#arena.subarray(at, Math.min(end, at + 4096)));
		return key;
	}

	#equals(index: number, key: string): boolean {
		const start = this.#starts[index]!;
		const end = index + 1 < this.#count ? this.#starts[index + 1]! : this.#used;
		if (end - start !== key.length) return false;
		const arena = this.#arena;
		for (let i = 0; i < key.length; i++) if (arena[start + i] !== key.charCodeAt(i)) return false;
		return true;
	}

	#append(key: string, hash: number): number {
		const index = this.#count++;
		if (index === this.#starts.length) {
			this.#starts = grown(this.#starts, this.#starts.length * 2);
			this.#hashes = grown(this.#hashes, this.#hashes.length * 2);
		}
		if (this.#used + key.length > this.#arena.length) {
			const arena = new Uint8Array(Math.max(this.#arena.length * 2, this.#used + key.length));
			arena.set(this.#arena.subarray(0, this.#used));
			this.#arena = arena;
		}
		this.#starts[index] = this.#used;
		this.#hashes[index] = hash;
		for (let i = 0; i < key.length; i++) this.#arena[this.#used + i] = key.charCodeAt(i);
		this.#used += key.length;
		return index;
	}

	#rehash(): void {
		const slots = new Int32Array(this.#slots.length * 2);
		const mask = slots.length - 1;
		for (let index = 0; index < this.#count; index++) {
			const start = this.#starts[index]!;
			const end = index + 1 < this.#count ? this.#starts[index + 1]! : this.#used;
			// A wide key is not in the slots.
			if (start === end && this.#hashes[index] === 0 && this.#isWide(index)) continue;
			let slot = this.#hashes[index]! & mask;
			while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
			slots[slot] = index + 1;
		}
		this.#slots = slots;
	}

	#isWide(index: number): boolean {
		for (const at of this.#wide.values()) if (at === index) return true;
		return false;
	}
}

/** A number per key of a `KeyTable` (or -1), growing as needed. */
export class KeyColumn {
	#values = new Int32Array(1 << 10).fill(-1);

	/** The number of key `index` (-1 for none, and for index -1). */
	get(index: number): number {
		return index >= 0 && index < this.#values.length ? this.#values[index]! : -1;
	}

	set(index: number, value: number): void {
		if (index >= this.#values.length) {
			let length = this.#values.length * 2;
			while (length <= index) length *= 2;
			const values = new Int32Array(length).fill(-1);
			values.set(this.#values);
			this.#values = values;
		}
		this.#values[index] = value;
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

function grown(values: Int32Array, length: number): Int32Array<ArrayBuffer> {
	const next = new Int32Array(length);
	next.set(values);
	return next;
}

/** FNV-1a of a string whose characters all fit in a byte; undefined when one does not. */
function latin1Hash(key: string): number | undefined {
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
