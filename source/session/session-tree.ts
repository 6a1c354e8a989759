import type { SessionTreeNode, StoredEntry } from "./types.js";

/** A tree node as `linkTree` builds it. */
interface LinkedNode<N> {
	children: N[];
	label?: string;
}

/**
 * Links one node per entry into trees in one pass (no recursion, so a 100k-deep linear session is
 * fine). Entries whose parent is missing become roots; children keep insertion order.
 */
export function linkTree<E extends { id: string; parentId: string | null }, N extends LinkedNode<N>>(
	entries: readonly E[],
	labels: ReadonlyMap<string, string>,
	nodeOf: (entry: E) => N,
): N[] {
	const nodes = new Map<string, N>();
	for (const entry of entries) {
		const node = nodeOf(entry);
		const label = labels.get(entry.id);
		if (label !== undefined) node.label = label;
		nodes.set(entry.id, node);
	}
	const roots: N[] = [];
	for (const entry of entries) {
		const node = nodes.get(entry.id)!;
		const parent = entry.parentId === null ? undefined : nodes.get(entry.parentId);
		if (parent && parent !== node) parent.children.push(node);
		else roots.push(node);
	}
	return roots;
}

/** Builds the session tree (see `linkTree`). */
export function buildTree(entries: readonly StoredEntry[], labels: ReadonlyMap<string, string>): SessionTreeNode[] {
	return linkTree(entries, labels, (entry): SessionTreeNode => ({ entry, children: [] }));
}

/** Parent id → children, for `getChildren`. Maintained incrementally by the session manager. */
export class ChildIndex<T extends { parentId: string | null } = StoredEntry> {
	readonly #children = new Map<string | null, T[]>();

	constructor(entries: readonly T[] = []) {
		for (const entry of entries) this.add(entry);
	}

	add(entry: T): void {
		const list = this.#children.get(entry.parentId);
		if (list) list.push(entry);
		else this.#children.set(entry.parentId, [entry]);
	}

	get(parentId: string | null): readonly T[] {
		return this.#children.get(parentId) ?? [];
	}
}
