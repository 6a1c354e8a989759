/// <reference lib="dom" />
// The export viewer: bundled by scripts/build.mjs into dist/export-viewer.js and inlined into every
// exported HTML file. It only reads the embedded JSON; session text reaches the DOM through
// textContent or the sanitised markdown renderer, never as raw HTML.
import { createConversation } from "./conversation.js";
import { readViewData } from "./data.js";
import { el } from "./dom.js";
import { renderHeader } from "./header-view.js";
import { SessionIndex } from "./session-index.js";
import { flattenTree } from "./tree-rows.js";
import { createTreeView } from "./tree-view.js";

function idFromHash(): string | undefined {
	const raw = location.hash.slice(1);
	if (!raw) return undefined;
	try {
		return decodeURIComponent(raw);
	} catch {
		return raw;
	}
}

function setHash(id: string): void {
	try {
		history.replaceState(null, "", `#${encodeURIComponent(id)}`);
	} catch {
		// Some browsers refuse history changes on file:// pages; the deep link is a convenience.
	}
}

function start(): void {
	performance.mark("xcsh-viewer-start");
	const app = document.getElementById("app") ?? document.body;
	const data = readViewData(document);
	const index = new SessionIndex(data);
	const conversation = createConversation(index, []);
	const select = (id: string, updateHash: boolean): void => {
		if (!index.get(id)) return;
		tree.select(id, true);
		conversation.show(id);
		if (updateHash) setHash(id);
	};
	const tree = createTreeView(index, flattenTree(index), {
		onSelect: (id) => select(id, true),
		onFilter: (mode) => conversation.setHideTools(mode === "no-tools"),
	});
	const layout = el("div", "layout");
	layout.append(tree.element, conversation.element);
	app.replaceChildren(renderHeader(data), layout);

	const linked = idFromHash();
	const first = linked !== undefined && index.get(linked) ? linked : index.leafId;
	if (first === null) conversation.element.append(el("p", "note", "This session has no entries."));
	else select(first, false);
	// The benchmark reads this mark: navigation start → the first messages are in the DOM.
	performance.mark("xcsh-first-render");
	window.addEventListener("hashchange", () => {
		const id = idFromHash();
		if (id !== undefined) select(id, false);
	});
}

try {
	start();
} catch (error) {
	const message = error instanceof Error ? error.message : String(error);
	document.body.replaceChildren(el("pre", "fatal", `This export could not be displayed: ${message}`));
}
