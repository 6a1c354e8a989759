/**
 * The ids of a skeleton's rows. A decoded cache keeps them as the one newline-joined text it
 * stores, with where each id starts, and makes an id's string only when it is asked for: half a
 * million id strings were 20 MB of heap and most of a warm open's garbage collection. Ids added
 * after that (a first open, appends) are kept as strings.
 */
export class IdList {
	readonly #text: string;
	/** Start of each id of `#text` in it, then the end of the last one plus one. */
	readonly #starts: Int32Array;
	readonly #more: string[];

	private constructor(text: string, starts: Int32Array, more: string[]) {
		this.#text = text;
		this.#starts = starts;
		this.#more = more;
	}

	/** A list of these ids (taken over, not copied). */
	static of(ids: string[]): IdList {
		return new IdList("", new Int32Array(1), ids);
	}

	/** The `count` ids of a newline-joined text; undefined when it holds another number of them. */
	static fromLines(text: string, count: number): IdList | undefined {
		if (count === 0) return text === "" ? IdList.of([]) : undefined;
		const starts = new Int32Array(count + 1);
		let at = 0;
		for (let i = 1; i < count; i++) {
			at = text.indexOf("\n", at);
			if (at < 0) return undefined;
			starts[i] = ++at;
		}
		if (text.indexOf("\n", at) >= 0) return undefined;
		starts[count] = text.length + 1;
		return new IdList(text, starts, []);
	}

	/** How many ids there are. */
	get length(): number {
		return this.#starts.length - 1 + this.#more.length;
	}

	/** The id of row `at`. */
	get(at: number): string {
		const inText = this.#starts.length - 1;
		if (at >= inText) return this.#more[at - inText]!;
		return this.#text.slice(this.#starts[at]!, this.#starts[at + 1]! - 1);
	}

	/** True when the id of row `at` is `id` (no string is made for a row of the text). */
	is(at: number, id: string): boolean {
		const inText = this.#starts.length - 1;
		if (at >= inText) return this.#more[at - inText] === id;
		const start = this.#starts[at]!;
		return this.#starts[at + 1]! - 1 - start === id.length && this.#text.startsWith(id, start);
	}

	/** Adds the id of the next row. */
	push(id: string): void {
		this.#more.push(id);
	}

	/** The first `count` ids joined by newlines, or undefined when one of them holds a newline. */
	lines(count: number): string | undefined {
		const inText = Math.min(count, this.#starts.length - 1);
		const more = this.#more.slice(0, count - inText);
		if (more.some((id) => id.includes("\n"))) return undefined;
		const head = inText === 0 ? "" : this.#text.slice(0, this.#starts[inText]! - 1);
		if (more.length === 0) return head;
		return inText === 0 ? more.join("\n") : `${head}\n${more.join("\n")}`;
	}

	/** The first `count` ids as strings. */
	slice(count: number): string[] {
		const ids: string[] = [];
		for (let i = 0; i < count; i++) ids.push(this.get(i));
		return ids;
	}
}
