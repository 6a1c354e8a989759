import type { Finding } from "./findings.js";

/** What the tree check needs of an entry. */
export interface TreeNode {
	id: string;
	/** null for a root (or a parent id that is not a string, which the session treats as a root). */
	parentId: string | null;
	line: number;
}

const UNSEEN = 0;
const ON_PATH = 1;
const DONE = 2;

/**
 * Orphans (a parent id not in the file) and parent cycles, in O(n) and without recursion: a 100k-deep
 * chain must not overflow the stack. Each node is walked towards the root once; a walk that meets a
 * node still on its own path has found a loop.
 */
export function checkTree(nodes: readonly TreeNode[]): Finding[] {
	const findings: Finding[] = [];
	const indexOf = new Map<string, number>();
	for (let i = 0; i < nodes.length; i++) indexOf.set(nodes[i]!.id, i);
	const parentIndex = new Int32Array(nodes.length).fill(-1);
	for (let i = 0; i < nodes.length; i++) {
		const node = nodes[i]!;
		if (node.parentId === null) continue;
		const parent = indexOf.get(node.parentId);
		if (parent === undefined) findings.push({ kind: "orphan", id: node.id, line: node.line, parentId: node.parentId });
		else parentIndex[i] = parent;
	}
	const state = new Uint8Array(nodes.length);
	// Position of a node in the current walk, to cut the loop out of it.
	const pathPosition = new Int32Array(nodes.length);
	const path: number[] = [];
	for (let i = 0; i < nodes.length; i++) {
		if (state[i] !== UNSEEN) continue;
		path.length = 0;
		let current = i;
		while (current >= 0 && state[current] === UNSEEN) {
			state[current] = ON_PATH;
			pathPosition[current] = path.length;
			path.push(current);
			current = parentIndex[current]!;
		}
		if (current >= 0 && state[current] === ON_PATH) {
			findings.push({ kind: "cycle", ids: path.slice(pathPosition[current]!).map((index) => nodes[index]!.id) });
		}
		for (const index of path) state[index] = DONE;
	}
	return findings;
}
