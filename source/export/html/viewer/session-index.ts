/// <reference lib="dom" />
import { str, type ViewData, type ViewEntry } from "./data.js";

/** The tree over the embedded entries: id index, children, labels and the file's active path. */
export class SessionIndex {
	readonly entries: readonly ViewEntry[];
	readonly leafId: string | null;
	readonly #byId = new Map<string, ViewEntry>();
	readonly #children = new Map<string, ViewEntry[]>();
	readonly #roots: ViewEntry[] = [];
	readonly #labels = new Map<string, string>();
	readonly #active: ReadonlySet<string>;

	constructor(data: ViewData) {
		this.entries = data.entries;
		this.leafId = data.leafId;
		for (const entry of data.entries) this.#byId.set(entry.id, entry);
		for (const entry of data.entries) {
			const parent = entry.parentId;
			if (parent === null || parent === entry.id || !this.#byId.has(parent)) {
				this.#roots.push(entry);
				continue;
			}
			const siblings = this.#children.get(parent);
			if (siblings) siblings.push(entry);
			else this.#children.set(parent, [entry]);
		}
		// File order: a later label entry replaces (or clears) an earlier one.
		for (const entry of data.entries) if (entry.type === "label") this.#applyLabel(entry);
		this.#active = new Set(data.leafId === null ? [] : this.pathTo(data.leafId).map((e) => e.id));
	}

	#applyLabel(entry: ViewEntry): void {
		const target = str(entry.raw.targetId);
		if (target === undefined) return;
		const label = str(entry.raw.label);
		if (label === undefined || label.length === 0) this.#labels.delete(target);
		else this.#labels.set(target, label);
	}

	/** One entry by id. */
	get(id: string): ViewEntry | undefined {
		return this.#byId.get(id);
	}

	/** Entries without a (known) parent, in file order. */
	get roots(): readonly ViewEntry[] {
		return this.#roots;
	}

	/** Direct children in file order. */
	childrenOf(id: string): readonly ViewEntry[] {
		return this.#children.get(id) ?? [];
	}

	/** The current label of an entry. */
	labelOf(id: string): string | undefined {
		return this.#labels.get(id);
	}

	/** True when the entry is on the path root → the file's leaf. */
	isActive(id: string): boolean {
		return this.#active.has(id);
	}

	/** The path root → `id`, walking parent links (a parent cycle in a damaged file stops the walk). */
	pathTo(id: string): ViewEntry[] {
		const path: ViewEntry[] = [];
		const seen = new Set<string>();
		let current = this.#byId.get(id);
		while (current && !seen.has(current.id)) {
			seen.add(current.id);
			path.push(current);
			current = current.parentId === null ? undefined : this.#byId.get(current.parentId);
		}
		return path.reverse();
	}
}
