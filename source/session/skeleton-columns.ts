import type { TreeRowKind } from "./entry-summary.js";
import { IdList } from "./id-list.js";
import type { ColumnData, EntryFacts, UsageFacts } from "./skeleton-column-data.js";
import { codeMap, Names } from "./skeleton-names.js";
import type { StoredEntry } from "./types.js";

export type { ColumnData, EntryFacts, UsageFacts } from "./skeleton-column-data.js";

/** `parentAt` when the parent's position is not known yet (it is looked up by id). */
export const UNKNOWN_PARENT = -2;
/** `parentAt` of a root, or of an entry whose parent is not in the file. */
const NO_PARENT = -1;

/** The typed arrays a column is held in. */
type RowColumn = Float64Array | Int32Array | Uint32Array | Uint8Array;

function grown<T extends RowColumn>(array: T, size: number): T {
	if (size <= array.length) return array;
	// By half again, not double: at half a million rows a doubling left ~20 MB of room unused at a
	// first open's peak (the slack is given back by `trim` once the load is done).
	const next = new (array.constructor as new (n: number) => T)(
		Math.max(size, array.length + (array.length >> 1), 1024),
	);
	next.set(array);
	return next;
}

/**
 * The skeletons of one load of a big session, as columns: a few bytes of typed arrays per entry
 * instead of an object, two strings and a facts object each (half a million entries took about
 * 300 bytes apiece that way). Each `LazyEntry` is a view of one row.
 */
export class SkeletonColumns {
	#size = 0;
	readonly #ids: IdList;
	/** Row of each row's parent in these columns (-1: none here; `#oddParents` may name it). */
	#parentRows: Int32Array;
	/** Parent ids that rows cannot give: parents not in the file, and (first open) parents not on the row before. */
	readonly #oddParents: Map<number, string>;
	/** Position of each row's parent in the session's entry table, as the table worked it out. */
	#parentAt: Int32Array;
	readonly #typeNames: Names;
	#types: Uint8Array;
	#times: Float64Array;
	/** Timestamps kept as they are: not canonical ISO text (or, in a damaged file, not text at all). */
	readonly #oddTimestamps: Map<number, unknown>;
	#offsets: Float64Array;
	#lengths: Float64Array;
	readonly #roleNames: Names;
	#roles: Uint8Array;
	readonly #modelNames: Names;
	#models: Uint32Array;
	#usageRows: Int32Array;
	#usage: Float64Array;
	#usageCount: number;
	readonly #kindNames: Names;
	#kinds: Uint8Array;
	/** Bodies kept in memory (context state, the active context), by row: a row's view is made and dropped freely. */
	readonly #pins = new Map<number, StoredEntry>();

	constructor(data?: ColumnData) {
		this.#size = data?.ids.length ?? 0;
		this.#ids = data?.ids ?? IdList.of([]);
		this.#parentRows = data?.parents ?? new Int32Array(0);
		this.#oddParents = new Map(data?.oddParents);
		// A cache's rows are its entries in order: parents' rows are their positions too (a copy, as the table may move).
		this.#parentAt = data ? data.parents.slice() : new Int32Array(0);
		this.#typeNames = new Names(data?.typeNames);
		this.#types = data?.types ?? new Uint8Array(0);
		this.#times = data?.times ?? new Float64Array(0);
		this.#oddTimestamps = new Map(data?.oddTimestamps);
		this.#offsets = data?.offsets ?? new Float64Array(0);
		this.#lengths = data?.lengths ?? new Float64Array(0);
		this.#roleNames = new Names(data?.roleNames);
		this.#roles = data?.roles ?? new Uint8Array(0);
		this.#modelNames = new Names(data?.modelNames);
		this.#models = data?.models ?? new Uint32Array(0);
		this.#usageRows = data?.usageRows ?? new Int32Array(0);
		this.#usage = data?.usage ?? new Float64Array(0);
		this.#usageCount = this.#usageRows.length;
		this.#kindNames = new Names(data?.kindNames);
		this.#kinds = data?.kinds ?? new Uint8Array(0);
	}

	/** Number of rows. */
	get size(): number {
		return this.#size;
	}

	/** Adds a row; returns its number. */
	push(
		type: string,
		id: string,
		parentId: string | null,
		timestamp: string,
		offset: number,
		length: number,
		facts: EntryFacts,
	): number {
		const at = this.#size++;
		const size = this.#size;
		this.#growTo(size);
		this.#ids.push(id);
		// Most entries follow their parent; the others keep its id (no id map is needed to push a row).
		const previous = parentId !== null && at > 0 && this.#ids.is(at - 1, parentId);
		this.#parentRows[at] = previous ? at - 1 : NO_PARENT;
		if (parentId !== null && !previous) this.#oddParents.set(at, parentId);
		this.#parentAt[at] = parentId === null ? NO_PARENT : UNKNOWN_PARENT;
		this.#types[at] = this.#typeNames.code(type);
		this.#setTimestamp(at, timestamp);
		this.#offsets[at] = offset;
		this.#lengths[at] = length;
		this.#roles[at] = this.#roleNames.code(facts.role);
		this.#models[at] = this.#modelNames.code(facts.model);
		this.#kinds[at] = this.#kindNames.code(facts.kind);
		const { usage } = facts;
		if (usage) {
			const k = this.#usageCount++;
			this.#usageRows = grown(this.#usageRows, k + 1);
			this.#usage = grown(this.#usage, 4 * (k + 1));
			this.#usageRows[k] = at;
			this.#usage.set([usage.input, usage.output, usage.cacheRead, usage.cost], 4 * k);
		}
		return at;
	}

	/**
	 * Appends `from`'s rows after these (a skeleton read in parts), pinned bodies included, copying
	 * columns rather than pushing each row again (which made each row's timestamp text and facts).
	 */
	append(from: SkeletonColumns): void {
		const base = this.#size;
		const n = from.#size;
		const size = base + n;
		this.#growTo(size);
		this.#times.set(from.#times.subarray(0, n), base);
		this.#offsets.set(from.#offsets.subarray(0, n), base);
		this.#lengths.set(from.#lengths.subarray(0, n), base);
		const types = codeMap(from.#typeNames, this.#typeNames);
		const roles = codeMap(from.#roleNames, this.#roleNames);
		const models = codeMap(from.#modelNames, this.#modelNames);
		const kinds = codeMap(from.#kindNames, this.#kindNames);
		for (let r = 0; r < n; r++) {
			const at = base + r;
			this.#ids.push(from.#ids.get(r));
			const parentRow = from.#parentRows[r]!;
			this.#parentRows[at] = parentRow >= 0 ? base + parentRow : NO_PARENT;
			const odd = from.#oddParents.get(r);
			if (odd !== undefined) this.#oddParents.set(at, odd);
			// A parent found in `from` keeps its place; one named but not found there is looked up by id.
			const parentAt = from.#parentAt[r]!;
			this.#parentAt[at] = parentAt >= 0 ? base + parentAt : odd === undefined ? NO_PARENT : UNKNOWN_PARENT;
			this.#types[at] = types[from.#types[r]!]!;
			this.#roles[at] = roles[from.#roles[r]!]!;
			this.#models[at] = models[from.#models[r]!]!;
			this.#kinds[at] = kinds[from.#kinds[r]!]!;
		}
		for (const [r, timestamp] of from.#oddTimestamps) if (r < n) this.#oddTimestamps.set(base + r, timestamp);
		const k = this.#usageCount;
		this.#usageCount += from.#usageCount;
		this.#usageRows = grown(this.#usageRows, this.#usageCount);
		this.#usage = grown(this.#usage, 4 * this.#usageCount);
		for (let j = 0; j < from.#usageCount; j++) this.#usageRows[k + j] = base + from.#usageRows[j]!;
		this.#usage.set(from.#usage.subarray(0, 4 * from.#usageCount), 4 * k);
		for (const [r, entry] of from.#pins) if (r < n) this.#pins.set(base + r, entry);
		this.#size = size;
	}

	/** Room for `size` rows in every per-row column. */
	#growTo(size: number): void {
		this.#eachRowColumn((array) => grown(array, size));
	}

	/** Replaces each per-row column with `change` of it. */
	#eachRowColumn(change: <T extends RowColumn>(array: T) => T): void {
		this.#parentRows = change(this.#parentRows);
		this.#parentAt = change(this.#parentAt);
		this.#types = change(this.#types);
		this.#times = change(this.#times);
		this.#offsets = change(this.#offsets);
		this.#lengths = change(this.#lengths);
		this.#roles = change(this.#roles);
		this.#models = change(this.#models);
		this.#kinds = change(this.#kinds);
	}

	/** Gives back the room `push` grew ahead (up to as much again as the rows): for when a load is done. */
	trim(): void {
		const exact = <T extends RowColumn>(array: T, length: number): T =>
			array.length === length ? array : (array.slice(0, length) as T);
		this.#eachRowColumn((array) => exact(array, this.#size));
		this.#usageRows = exact(this.#usageRows, this.#usageCount);
		this.#usage = exact(this.#usage, 4 * this.#usageCount);
	}

	#setTimestamp(at: number, timestamp: unknown): void {
		const ms = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
		// Only a timestamp that prints back the same is kept as a number: the text is what the file says.
		if (Number.isFinite(ms) && new Date(ms).toISOString() === timestamp) this.#times[at] = ms;
		else {
			this.#times[at] = Number.NaN;
			this.#oddTimestamps.set(at, timestamp);
		}
	}

	type(at: number): string {
		return this.#typeNames.name(this.#types[at]!) ?? "";
	}

	/** True when row `at` is an entry of type `type`; `code` is `typeCode(type)`, found once per scan. */
	isType(at: number, code: number): boolean {
		return this.#types[at] === code;
	}

	/** The type column as it is: each row's `typeCode` of its type. */
	typeColumn(): Uint8Array {
		return this.#types;
	}

	/** The code rows of type `type` carry (-1: none does). */
	typeCode(type: string): number {
		return this.#typeNames.find(type);
	}

	id(at: number): string {
		return this.#ids.get(at);
	}

	/** True when row `at`'s id is `id` (its string is not made). */
	hasId(at: number, id: string): boolean {
		return this.#ids.is(at, id);
	}

	parentId(at: number): string | null {
		const parent = this.#parentRows[at]!;
		if (parent >= 0) return this.#ids.get(parent);
		return this.#oddParents.get(at) ?? null;
	}

	parentAt(at: number): number {
		return this.#parentAt[at]!;
	}

	/** Records where the table found a row's parent (`NO_PARENT`: a root, or a parent not in the file). */
	setParentAt(at: number, parent: number): void {
		this.#parentAt[at] = parent;
	}

	timestamp(at: number): string {
		const ms = this.#times[at]!;
		return Number.isNaN(ms) ? (this.#oddTimestamps.get(at) as string) : new Date(ms).toISOString();
	}

	offset(at: number): number {
		return this.#offsets[at]!;
	}

	setOffset(at: number, offset: number): void {
		this.#offsets[at] = offset;
	}

	length(at: number): number {
		return this.#lengths[at]!;
	}

	role(at: number): string | undefined {
		return this.#roleNames.name(this.#roles[at]!);
	}

	model(at: number): string | undefined {
		return this.#modelNames.name(this.#models[at]!);
	}

	kind(at: number): TreeRowKind | undefined {
		return this.#kindNames.name(this.#kinds[at]!) as TreeRowKind | undefined;
	}

	/** The kind column as it is (code 0: none, else 1 + an index of `names`): `/tree` reads every entry's kind at once. */
	kindColumn(): { readonly codes: Uint8Array; readonly names: readonly string[] } {
		return { codes: this.#kinds, names: this.#kindNames.list };
	}

	usage(at: number): UsageFacts | undefined {
		// Rows are pushed in order, so the rows with usage are ascending: a binary search finds `at`.
		const rows = this.#usageRows;
		let low = 0;
		let high = this.#usageCount - 1;
		while (low <= high) {
			const mid = (low + high) >> 1;
			const row = rows[mid]!;
			if (row === at) {
				const u = 4 * mid;
				const usage = this.#usage;
				return { input: usage[u]!, output: usage[u + 1]!, cacheRead: usage[u + 2]!, cost: usage[u + 3]! };
			}
			if (row < at) low = mid + 1;
			else high = mid - 1;
		}
		return undefined;
	}

	/** The body kept in memory for row `at`, if any. */
	pinned(at: number): StoredEntry | undefined {
		return this.#pins.get(at);
	}

	/** Keeps (or, with undefined, stops keeping) row `at`'s body in memory. */
	setPinned(at: number, entry: StoredEntry | undefined): void {
		if (entry) this.#pins.set(at, entry);
		else this.#pins.delete(at);
	}

	/** Every row whose body is kept, with it. */
	pins(): IterableIterator<[number, StoredEntry]> {
		return this.#pins.entries();
	}

	/** Whether any row is an assistant message, and the sum of every row's usage (a session's totals). */
	assistantTotals(): { any: boolean; usage: UsageFacts } {
		const usage: UsageFacts = { input: 0, output: 0, cacheRead: 0, cost: 0 };
		const values = this.#usage;
		for (let k = 0; k < this.#usageCount; k++) {
			usage.input += values[4 * k]!;
			usage.output += values[4 * k + 1]!;
			usage.cacheRead += values[4 * k + 2]!;
			usage.cost += values[4 * k + 3]!;
		}
		// Rows with usage are assistant messages; without any, look for one without usage.
		const assistant = this.#roleNames.list.indexOf("assistant") + 1;
		const any = this.#usageCount > 0 || (assistant > 0 && this.#roles.subarray(0, this.#size).includes(assistant));
		return { any, usage };
	}

	/** The row's facts as one object (for a cache being written). */
	facts(at: number): EntryFacts {
		const facts: EntryFacts = {};
		const role = this.role(at);
		if (role !== undefined) facts.role = role;
		const model = this.model(at);
		if (model !== undefined) facts.model = model;
		const kind = this.kind(at);
		if (kind !== undefined) facts.kind = kind;
		const usage = this.usage(at);
		if (usage) facts.usage = usage;
		return facts;
	}

	/**
	 * The columns of rows `0 … size - 1`, as a cache stores them: views of these columns (a cache
	 * copies them into its bytes; copies here were tens of MB at a big first open's peak), but for
	 * the parents, which the encoder fills in.
	 */
	data(): ColumnData {
		const n = this.#size;
		const odd = <T>(map: Map<number, T>): [number, T][] => [...map].filter(([at]) => at < n);
		return {
			ids: this.#ids,
			parents: this.#parentAt.slice(0, n),
			oddParents: odd(this.#oddParents),
			typeNames: [...this.#typeNames.list],
			types: this.#types.subarray(0, n),
			times: this.#times.subarray(0, n),
			oddTimestamps: odd(this.#oddTimestamps),
			offsets: this.#offsets.subarray(0, n),
			lengths: this.#lengths.subarray(0, n),
			roleNames: [...this.#roleNames.list],
			roles: this.#roles.subarray(0, n),
			modelNames: [...this.#modelNames.list],
			models: this.#models.subarray(0, n),
			usageRows: this.#usageRows.subarray(0, this.#usageCount),
			usage: this.#usage.subarray(0, 4 * this.#usageCount),
			kindNames: [...this.#kindNames.list],
			kinds: this.#kinds.subarray(0, n),
		};
	}
}
