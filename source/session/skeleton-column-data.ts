import type { TreeRowKind } from "./entry-summary.js";
import type { IdList } from "./id-list.js";

/** What an assistant message cost, kept in the skeleton so totals need no bodies. */
export interface UsageFacts {
	input: number;
	output: number;
	cacheRead: number;
	cost: number;
}

/** The few facts about a body the session needs without reading it. */
export interface EntryFacts {
	/** `message.role` of a message entry. */
	role?: string;
	/** "provider/model" of an assistant message (the context's default model falls back to it). */
	model?: string;
	usage?: UsageFacts;
	/** What `/tree` shows the entry as (its filters need it for every entry). */
	kind?: TreeRowKind;
}

/** The columns as a skeleton cache stores them (typed arrays are taken over, not copied). */
export interface ColumnData {
	ids: IdList;
	/** Parent positions (rows); -1 for roots and parents not in the file (`oddParents` keeps those ids). */
	parents: Int32Array;
	oddParents: [number, string][];
	typeNames: string[];
	types: Uint8Array;
	/** Milliseconds of each canonical ISO timestamp; NaN where `oddTimestamps` has the text. */
	times: Float64Array;
	oddTimestamps: [number, unknown][];
	offsets: Float64Array;
	lengths: Float64Array;
	roleNames: string[];
	roles: Uint8Array;
	modelNames: string[];
	models: Uint32Array;
	/** The rows that have usage, ascending (most entries have none: a column per row was a third of a cache). */
	usageRows: Int32Array;
	/** input, output, cacheRead, cost of each row of `usageRows`. */
	usage: Float64Array;
	kindNames: string[];
	kinds: Uint8Array;
}
