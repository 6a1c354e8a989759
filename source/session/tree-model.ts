import type { TreeRowKind } from "./entry-summary.js";

/** Every kind, in the order of `TreeModel.kindCodes`. */
export const TREE_ROW_KINDS: readonly TreeRowKind[] = [
	"user",
	"assistant",
	"toolCall",
	"toolResult",
	"bash",
	"customMessage",
	"branchSummary",
	"compaction",
	"model",
	"thinking",
	"label",
	"custom",
	"mode",
	"sessionInit",
	"ttsr",
	"unknown",
];

const KIND_CODES = new Map<string, number>(TREE_ROW_KINDS.map((kind, code) => [kind, code]));

/** The code of a kind in `TREE_ROW_KINDS` ("unknown" for a name it does not know). */
export function kindCode(kind: string): number {
	return KIND_CODES.get(kind) ?? KIND_CODES.get("unknown")!;
}

/** The parts of a tree node a `TreeModel` is made from. */
interface NodeLike {
	readonly id: string;
	readonly kind: TreeRowKind;
	readonly text: string;
	readonly children: readonly NodeLike[];
	readonly label?: string;
}

/**
 * A tree by positions, what `/tree` lays out: every entry is a number, its children a run of
 * `childList`, so a half-million-entry layout is loops over typed arrays and the strings (ids, kinds
 * of entries in memory, texts, labels) are read only for the entries that need them.
 */
export interface TreeModel {
	/** Number of positions (every entry, reachable from a root or not). */
	readonly size: number;
	/** Positions of the roots, in order. */
	readonly roots: Int32Array;
	/** The children of `p` are `childList[childStart[p]]` up to `childList[childStart[p + 1]]`, in order. */
	readonly childStart: Int32Array;
	readonly childList: Int32Array;
	/**
	 * The same children as a list: the first child of `p` (-1: none), then each child's next sibling
	 * (-1: the last). Made in one pass, where `childStart` takes three: what `/tree` opens with.
	 */
	readonly firstChild: Int32Array;
	readonly nextSibling: Int32Array;
	/** The parent's position (-1: a root). */
	parentOf(position: number): number;
	/** Every position's parent (-1: a root), for loops over all of them. */
	readonly parents: Int32Array;
	/** True when every parent comes before its children (always, but in a damaged file). */
	readonly parentsFirst: boolean;
	id(position: number): string;
	kind(position: number): TreeRowKind;
	/** Every position's kind as an index of `TREE_ROW_KINDS` (made once per model). */
	kindCodes(): Uint8Array;
	label(position: number): string | undefined;
	/** False when no entry has a label (the "labeled" filter then shows nothing, without a look-up per entry). */
	hasLabels(): boolean;
	/** The one-line text (may read the entry's body from disk). */
	text(position: number): string;
	positionOf(id: string): number | undefined;
	/** Positions root → the entry `id` (empty when it is null or absent). */
	pathTo(id: string | null): readonly number[];
	/** True when a position means the same entry in both models (the second is the first after appends). */
	sameOrder(other: TreeModel): boolean;
}

/** A model of a tree of nodes (a tree not made from a session's table: tests, small trees), positions in depth-first order. */
class NodeTreeModel implements TreeModel {
	readonly size: number;
	readonly roots: Int32Array;
	readonly childStart: Int32Array;
	readonly childList: Int32Array;
	readonly firstChild: Int32Array;
	readonly nextSibling: Int32Array;
	readonly parents: Int32Array;
	readonly parentsFirst = true;
	readonly #nodes: readonly NodeLike[];
	#positions: Map<string, number> | undefined;

	constructor(roots: readonly NodeLike[]) {
		const nodes: NodeLike[] = [];
		const parents: number[] = [];
		const kids: number[][] = [];
		// Depth-first with an explicit stack: a 100k-deep linear tree is one loop.
		const stack: { node: NodeLike; parent: number }[] = [];
		for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i]!, parent: -1 });
		const rootList: number[] = [];
		while (stack.length > 0) {
			const { node, parent } = stack.pop()!;
			const at = nodes.length;
			nodes.push(node);
			parents.push(parent);
			kids.push([]);
			if (parent < 0) rootList.push(at);
			else kids[parent]!.push(at);
			for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, parent: at });
		}
		this.size = nodes.length;
		this.#nodes = nodes;
		this.parents = Int32Array.from(parents);
		this.roots = Int32Array.from(rootList);
		this.childStart = new Int32Array(nodes.length + 1);
		this.childList = new Int32Array(Math.max(0, nodes.length - rootList.length));
		let fill = 0;
		for (let i = 0; i < nodes.length; i++) {
			this.childStart[i] = fill;
			for (const kid of kids[i]!) this.childList[fill++] = kid;
		}
		this.childStart[nodes.length] = fill;
		this.firstChild = new Int32Array(nodes.length).fill(-1);
		this.nextSibling = new Int32Array(nodes.length).fill(-1);
		for (let i = 0; i < nodes.length; i++) {
			const list = kids[i]!;
			if (list.length > 0) this.firstChild[i] = list[0]!;
			for (let k = 0; k + 1 < list.length; k++) this.nextSibling[list[k]!] = list[k + 1]!;
		}
	}

	parentOf(position: number): number {
		return this.parents[position]!;
	}

	id(position: number): string {
		return this.#nodes[position]!.id;
	}

	kind(position: number): TreeRowKind {
		return this.#nodes[position]!.kind;
	}

	kindCodes(): Uint8Array {
		return Uint8Array.from(this.#nodes, (node) => kindCode(node.kind));
	}

	label(position: number): string | undefined {
		return this.#nodes[position]!.label;
	}

	hasLabels(): boolean {
		return true;
	}

	text(position: number): string {
		return this.#nodes[position]!.text;
	}

	positionOf(id: string): number | undefined {
		if (!this.#positions) {
			// The first node of an id in depth-first order, as a search of the tree would find it.
			const positions = new Map<string, number>();
			for (let i = 0; i < this.#nodes.length; i++) {
				const nodeId = this.#nodes[i]!.id;
				if (!positions.has(nodeId)) positions.set(nodeId, i);
			}
			this.#positions = positions;
		}
		return this.#positions.get(id);
	}

	pathTo(id: string | null): readonly number[] {
		const at = id === null ? undefined : this.positionOf(id);
		if (at === undefined) return [];
		const path: number[] = [];
		for (let p = at; p >= 0; p = this.parents[p]!) path.push(p);
		return path.reverse();
	}

	sameOrder(other: TreeModel): boolean {
		return other === this;
	}
}

/** The model of a tree of nodes. */
export function modelOfNodes(roots: readonly NodeLike[]): TreeModel {
	return new NodeTreeModel(roots);
}
