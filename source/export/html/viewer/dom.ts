/// <reference lib="dom" />

/** Creates an element; text always goes through textContent, never through HTML parsing. */
export function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	className?: string,
	text?: string,
): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	if (className) node.className = className;
	if (text !== undefined) node.textContent = text;
	return node;
}

/**
 * A collapsible block whose body is built the first time it opens: closed tool output and
 * thinking cost nothing, which keeps 10k-entry sessions fast.
 */
export function lazyDetails(className: string, summary: Node | string, fill: () => Node): HTMLDetailsElement {
	const details = el("details", className);
	const head = el("summary");
	if (typeof summary === "string") head.textContent = summary;
	else head.append(summary);
	details.append(head);
	let filled = false;
	const ensure = (): void => {
		if (filled || !details.open) return;
		filled = true;
		details.append(fill());
	};
	details.addEventListener("toggle", ensure);
	return details;
}

/** Text clipped to `max` characters on one line, for summaries and tree rows. */
export function oneLine(text: string, max: number): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A `<pre>` with plain text. */
export function pre(text: string, className?: string): HTMLPreElement {
	return el("pre", className, text);
}
