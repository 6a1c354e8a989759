/** A column's small string table: a column holds 1 + a name's index (0: none). */
export class Names {
	readonly list: string[];
	readonly #codes = new Map<string, number>();

	constructor(list: string[] = []) {
		this.list = list;
		for (let i = 0; i < list.length; i++) this.#codes.set(list[i]!, i + 1);
	}

	code(name: string | undefined): number {
		if (name === undefined) return 0;
		let code = this.#codes.get(name);
		if (code === undefined) {
			this.list.push(name);
			code = this.list.length;
			this.#codes.set(name, code);
		}
		return code;
	}

	name(code: number): string | undefined {
		return code === 0 ? undefined : this.list[code - 1];
	}

	/** The code of a name, without adding it (-1: no row has it). */
	find(name: string): number {
		return this.#codes.get(name) ?? -1;
	}
}

/** For each code of `from`, the code of the same name in `into` (added there when missing). */
export function codeMap(from: Names, into: Names): Uint32Array {
	const map = new Uint32Array(from.list.length + 1);
	for (let code = 1; code <= from.list.length; code++) map[code] = into.code(from.name(code));
	return map;
}
