/// <reference lib="dom" />
import { roleOf } from "./content.js";
import type { ViewEntry } from "./data.js";
import { searchTextOf } from "./preview.js";
import type { SessionIndex } from "./session-index.js";

/** One row of the flattened tree. */
export interface TreeRow {
	readonly entry: ViewEntry;
	/** Side branches the row hangs off: the active path stays at 0 however many branches leave it. */
	readonly indent: number;
	/** Graph drawn before the row, git-log style: "├─ " starts a side branch, "│  " is a line passing by. */
	readonly graph: string;
	/** On the path root → the file's leaf. */
	readonly active: boolean;
}

interface Pending {
	entry: ViewEntry;
	indent: number;
	graph: string;
	/** What the rows under this one draw for the lines passing by on their left. */
	gutter: string;
}

/**
 * Flattens the whole tree without recursion (a 100k-deep linear session must not overflow the
 * stack). At a branch point the child on the active path (else the newest) continues at the same
 * column after the other children, which hang off it one step right (`git log --graph` style), so
 * the active path reads as a straight line. Entries caught in a parent cycle are listed as extra roots so none is lost.
 */
export function flattenTree(index: SessionIndex): TreeRow[] {
	const rows: TreeRow[] = [];
	const emitted = new Set<string>();
	const stack: Pending[] = [];
	const walk = (starts: readonly ViewEntry[]): void => {
		for (let i = starts.length - 1; i >= 0; i--) stack.push({ entry: starts[i]!, indent: 0, graph: "", gutter: "" });
		while (stack.length > 0) {
			const { entry, indent, graph, gutter } = stack.pop()!;
			if (emitted.has(entry.id)) continue;
			emitted.add(entry.id);
			rows.push({ entry, indent, graph, active: index.isActive(entry.id) });
			const children = index.childrenOf(entry.id).filter((child) => !emitted.has(child.id));
			if (children.length === 0) continue;
			const next = children.find((child) => index.isActive(child.id)) ?? children[children.length - 1]!;
			stack.push({ entry: next, indent, graph: gutter, gutter });
			for (let i = children.length - 1; i >= 0; i--) {
				const child = children[i]!;
				if (child !== next)
					stack.push({ entry: child, indent: indent + 1, graph: `${gutter}├─ `, gutter: `${gutter}│  ` });
			}
		}
	};
	walk(index.roots);
	if (emitted.size < index.entries.length) walk(index.entries.filter((entry) => !emitted.has(entry.id)));
	return rows;
}

/** The sidebar's filter buttons. */
export type FilterMode = "default" | "no-tools" | "user" | "labeled" | "all";

/** Every filter, in button order. */
export const FILTER_MODES: readonly FilterMode[] = ["default", "no-tools", "user", "labeled", "all"];

/** Bookkeeping entries the default view leaves out (labels show on their targets instead). */
const HIDDEN_BY_DEFAULT: ReadonlySet<string> = new Set(["label", "custom"]);

/** True when the filter keeps the entry. */
export function passesFilter(entry: ViewEntry, mode: FilterMode, index: SessionIndex): boolean {
	switch (mode) {
		case "all":
			return true;
		case "default":
			return !HIDDEN_BY_DEFAULT.has(entry.type);
		case "no-tools":
			return !HIDDEN_BY_DEFAULT.has(entry.type) && roleOf(entry) !== "toolResult";
		case "user":
			return roleOf(entry) === "user";
		case "labeled":
			return index.labelOf(entry.id) !== undefined;
		default: {
			const exhaustive: never = mode;
			return exhaustive;
		}
	}
}

/** Case-insensitive search over entry text; the lowercased texts are built on the first query. */
export class TreeSearch {
	readonly #index: SessionIndex;
	#texts: Map<string, string> | undefined;

	constructor(index: SessionIndex) {
		this.#index = index;
	}

	/** True when every whitespace-separated term of `query` occurs in the entry. */
	matches(entry: ViewEntry, terms: readonly string[]): boolean {
		if (terms.length === 0) return true;
		if (!this.#texts) {
			this.#texts = new Map();
			for (const e of this.#index.entries) this.#texts.set(e.id, searchTextOf(e, this.#index.labelOf(e.id)));
		}
		const text = this.#texts.get(entry.id) ?? "";
		return terms.every((term) => text.includes(term));
	}
}

/** A query split into lowercased terms. */
export function searchTerms(query: string): string[] {
	return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** The rows a filter and a search keep, in tree order. */
export function visibleRows(
	rows: readonly TreeRow[],
	mode: FilterMode,
	terms: readonly string[],
	index: SessionIndex,
	search: TreeSearch,
): TreeRow[] {
	return rows.filter((row) => passesFilter(row.entry, mode, index) && search.matches(row.entry, terms));
}
