import { passesFilter, type TreeFilter, type TreeRowKind } from "../../source/session/entry-summary.js";
import { type SummaryTreeNode, summaryPath } from "../../source/session/summary-tree.js";

export type { TreeFilter, TreeRowKind } from "../../source/session/entry-summary.js";
export { nextFilter, TREE_FILTERS } from "../../source/session/entry-summary.js";

/** One display row of the session tree. */
export interface TreeRow {
	readonly id: string;
	/** Side branches the row hangs off (the active path and any linear chain stay at one depth). */
	readonly depth: number;
	/** Graph connectors before the text, git-log style: "├─ " starts a side branch, "│  " is a line passing by. */
	readonly prefix: string;
	readonly text: string;
	readonly kind: TreeRowKind;
	/** On the path root → current leaf. */
	readonly onActivePath: boolean;
	/** The current leaf itself. */
	readonly isLeaf: boolean;
	/**
	 * Marks where you are when the leaf is not shown (a label entry, which `l` appends at the leaf, or
	 * one a filter or search hides): its nearest shown ancestor, unless a fold already hides the leaf.
	 */
	readonly standsForLeaf: boolean;
	readonly label?: string;
	readonly hasChildren: boolean;
	/** Visible children; more than one makes the row a branch point. */
	readonly childCount: number;
	/** Folded: its descendants are not rows. */
	readonly folded: boolean;
}

/**
 * A row of a node. A class with its text read on the prototype, not an object with a getter of its
 * own: `/tree` of a half-million-entry session makes one per entry, and reads text only for the
 * rows drawn (a big session's bodies stay on disk for rows off screen).
 */
class NodeRow implements TreeRow {
	readonly id: string;
	readonly kind: TreeRowKind;
	readonly label?: string;
	readonly hasChildren: boolean;
	standsForLeaf = false;
	readonly #node: SummaryTreeNode;

	constructor(
		node: SummaryTreeNode,
		readonly depth: number,
		readonly prefix: string,
		readonly onActivePath: boolean,
		readonly isLeaf: boolean,
		readonly childCount: number,
		readonly folded: boolean,
	) {
		this.#node = node;
		this.id = node.id;
		this.kind = node.kind;
		if (node.label !== undefined) this.label = node.label;
		this.hasChildren = childCount > 0;
	}

	get text(): string {
		return this.#node.text;
	}
}

/** What `flattenTree` shows. */
export interface FlattenOptions {
	readonly leafId: string | null;
	readonly filter?: TreeFilter;
	/** Case-insensitive substring of the row text or label; rows that miss are hidden. */
	readonly search?: string;
	/** Ids whose descendants are hidden. */
	readonly folded?: ReadonlySet<string>;
}

const NO_FOLDS: ReadonlySet<string> = new Set();

// The active path only depends on the tree and the leaf; a search keystroke re-flattens the same tree.
const pathCache = new WeakMap<readonly SummaryTreeNode[], { leafId: string; path: readonly SummaryTreeNode[] }>();

/** The nodes root → `leafId` (empty when absent), by an iterative depth-first walk with its own path stack. */
export function activePath(roots: readonly SummaryTreeNode[], leafId: string | null): readonly SummaryTreeNode[] {
	if (leafId === null) return [];
	const cached = pathCache.get(roots);
	if (cached?.leafId === leafId) return cached.path;
	// A session's tree knows its paths; a tree made any other way is searched.
	const known = summaryPath(roots, leafId);
	if (known) {
		pathCache.set(roots, { leafId, path: known });
		return known;
	}
	const path: SummaryTreeNode[] = [];
	const next: number[] = [];
	search: for (const root of roots) {
		path.push(root);
		next.push(0);
		if (root.id === leafId) break;
		while (path.length > 0) {
			const top = path.length - 1;
			const node = path[top]!;
			const index = next[top]!;
			if (index >= node.children.length) {
				path.pop();
				next.pop();
				continue;
			}
			next[top] = index + 1;
			const child = node.children[index]!;
			path.push(child);
			next.push(0);
			if (child.id === leafId) break search;
		}
	}
	pathCache.set(roots, { leafId, path });
	return path;
}

// Reads the node's text: in a big session, a search reads every body it has to look at.
function matches(node: SummaryTreeNode, needle: string): boolean {
	return node.text.toLowerCase().includes(needle) || (node.label?.toLowerCase().includes(needle) ?? false);
}

/**
 * Flattens the tree into display rows, depth-first and without recursion (a 100k-deep session is
 * one loop). Like `git log --graph`, the active path runs down column 0 and side branches hang off
 * it; hidden entries (filter or search) pass their children up to the nearest visible ancestor.
 */
export function flattenTree(roots: readonly SummaryTreeNode[], options: FlattenOptions): TreeRow[] {
	const filter = options.filter ?? "default";
	const needle = (options.search ?? "").trim().toLowerCase();
	const folded = options.folded ?? NO_FOLDS;
	// A node is on the active path when it is the path's node at its own depth in the tree (hidden
	// ancestors counted); comparing identities avoids a 100k-entry id set for a linear session.
	const path = activePath(roots, options.leafId);

	const isShown = (node: SummaryTreeNode): boolean =>
		passesFilter(node.kind, node.label, filter) && (needle === "" || matches(node, needle));

	// The stack is kept as parallel arrays and the visible children in scratch arrays: at 100k
	// rows, an object per frame or per child list is most of the time (in the garbage collector).
	const stackNode: SummaryTreeNode[] = [];
	const stackDepth: number[] = [];
	const stackLevel: number[] = [];
	const stackPrefix: string[] = [];
	const stackGutter: string[] = [];
	const kidNodes: SummaryTreeNode[] = [];
	const kidLevels: number[] = [];
	const pending: SummaryTreeNode[] = [];
	const pendingLevel: number[] = [];

	// Fills the scratch arrays with the visible children. Every node is examined exactly once, by the
	// nearest visible ancestor that collects it.
	const collect = (children: readonly SummaryTreeNode[], level: number): number => {
		// A count instead of `length = 0`: truncating an array is a runtime call, 100k times.
		let count = 0;
		for (let i = children.length - 1; i >= 0; i--) {
			pending.push(children[i]!);
			pendingLevel.push(level);
		}
		while (pending.length > 0) {
			const node = pending.pop()!;
			const nodeLevel = pendingLevel.pop()!;
			if (isShown(node)) {
				kidNodes[count] = node;
				kidLevels[count] = nodeLevel;
				count++;
			} else {
				for (let i = node.children.length - 1; i >= 0; i--) {
					pending.push(node.children[i]!);
					pendingLevel.push(nodeLevel + 1);
				}
			}
		}
		return count;
	};

	const push = (index: number, depth: number, prefix: string, gutter: string): void => {
		stackNode.push(kidNodes[index]!);
		stackDepth.push(depth);
		stackLevel.push(kidLevels[index]!);
		stackPrefix.push(prefix);
		stackGutter.push(gutter);
	};
	// Git-log style: the child that carries the line on (the one on the active path, else the newest)
	// stays in its parent's column after the others, which hang off it one step right. So the active
	// path is column 0 however many side branches leave it, and only a branch of a branch indents twice.
	const pushChildren = (count: number, gutter: string, depth: number): void => {
		if (count === 0) return;
		let main = count - 1;
		for (let i = 0; i < count; i++) {
			if (path[kidLevels[i]!] === kidNodes[i]) {
				main = i;
				break;
			}
		}
		// A stack: the line's continuation is pushed first so that it is drawn after its side branches.
		push(main, depth, gutter, gutter);
		for (let i = count - 1; i >= 0; i--) {
			if (i !== main) push(i, depth + 1, `${gutter}├─ `, `${gutter}│  `);
		}
	};

	const rows: TreeRow[] = [];
	let leafShown = false;
	let lastOnPath: NodeRow | undefined;
	pushChildren(collect(roots, 0), "", 0);
	while (stackNode.length > 0) {
		const node = stackNode.pop()!;
		const depth = stackDepth.pop()!;
		const level = stackLevel.pop()!;
		const prefix = stackPrefix.pop()!;
		const gutter = stackGutter.pop()!;
		const id = node.id;
		const childCount = collect(node.children, level + 1);
		const isFolded = childCount > 0 && folded.has(id);
		const row = new NodeRow(node, depth, prefix, path[level] === node, id === options.leafId, childCount, isFolded);
		if (row.isLeaf) leafShown = true;
		// The path's rows come root first, so the last one seen is the deepest shown.
		if (row.onActivePath) lastOnPath = row;
		rows.push(row);
		if (!isFolded) pushChildren(childCount, gutter, depth);
	}
	if (!leafShown && lastOnPath && !lastOnPath.folded) lastOnPath.standsForLeaf = true;
	return rows;
}

/** Where the selection starts: the leaf's row, else its deepest visible ancestor, else the last row. */
export function initialRowIndex(rows: readonly TreeRow[]): number {
	const leaf = rows.findIndex((row) => row.isLeaf);
	if (leaf >= 0) return leaf;
	const ancestor = rows.findLastIndex((row) => row.onActivePath);
	return ancestor >= 0 ? ancestor : Math.max(0, rows.length - 1);
}
