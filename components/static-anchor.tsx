import { Static } from "ink";

const NONE: string[] = [];

/**
 * An empty `<Static>` for screens that replace the chat. Ink 6.8 keeps a pointer to the last
 * `<Static>` it created (`rootNode.staticNode`) and reads its layout on every frame, even after
 * that node was unmounted and its yoga node freed: the freed memory can read back as a height of
 * 2^65 rows and the next frame never finishes. Mounting a fresh, empty one with the screen points
 * Ink at a live node instead; it prints nothing.
 */
export function StaticAnchor() {
	return <Static items={NONE}>{() => null}</Static>;
}
