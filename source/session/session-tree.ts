import type { SessionTreeNode, StoredEntry } from "./types.js";

/**
 * Builds the session tree in one pass over the entries (no recursion, so a 100k-deep linear session
 * is fine). Entries whose parent is missing become roots; children keep insertion order.
 */
export function buildTree(
	entries: readonly StoredEntry[],
	byId: ReadonlyMap<string, unknown>,
	labels: ReadonlyMap<string, string>,
): SessionTreeNode[] {
	const nodes = new Map<string, SessionTreeNode>();
	for (const entry of entries) {
		const node: SessionTreeNode = { entry, children: [] };
		const label = labels.get(entry.id);
		if (label !== undefined) node.label = label;
		nodes.set(entry.id, node);
	}
	const roots: SessionTreeNode[] = [];
	for (const entry of entries) {
		const node = nodes.get(entry.id)!;
		const parent = entry.parentId === null || !byId.has(entry.parentId) ? undefined : nodes.get(entry.parentId);
		if (parent && parent !== node) parent.children.push(node);
		else roots.push(node);
	}
	return roots;
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
