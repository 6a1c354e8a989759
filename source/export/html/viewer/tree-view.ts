/// <reference lib="dom" />
import { el } from "./dom.js";
import { kindOf, previewOf } from "./preview.js";
import type { SessionIndex } from "./session-index.js";
import { FILTER_MODES, type FilterMode, searchTerms, type TreeRow, TreeSearch, visibleRows } from "./tree-rows.js";

/** Callbacks from the sidebar. */
export interface TreeViewOptions {
	readonly onSelect: (id: string) => void;
	readonly onFilter: (mode: FilterMode) => void;
}

/** The sidebar: search box, filter buttons and the virtualised tree list. */
export interface TreeView {
	readonly element: HTMLElement;
	/** Marks `id` (and its path) selected; `reveal` scrolls its row into view. */
	select(id: string, reveal: boolean): void;
}

/** Fixed row height: the list is virtualised, only rows near the viewport exist in the DOM. */
const ROW_HEIGHT = 22;
const OVERSCAN = 30;
/** Graph characters kept before a row's text; a deeper graph keeps its innermost part. */
const MAX_GRAPH = 24;

/** The graph before a row, its outer part cut off when it is deeper than `MAX_GRAPH`. */
function clipGraph(graph: string): string {
	return graph.length <= MAX_GRAPH ? graph : `…${graph.slice(graph.length - MAX_GRAPH + 1)}`;
}

function rowElement(
	row: TreeRow,
	top: number,
	index: SessionIndex,
	selected: string,
	path: ReadonlySet<string>,
): HTMLElement {
	const { entry } = row;
	let className = `tree-row kind-${kindOf(entry)}`;
	if (row.active) className += " active-path";
	if (path.has(entry.id)) className += " in-path";
	if (entry.id === selected) className += " selected";
	const node = el("div", className);
	node.dataset.id = entry.id;
	node.style.top = `${top}px`;
	if (row.graph !== "") node.append(el("span", "connector", clipGraph(row.graph)));
	node.append(el("span", "marker", row.active ? "●" : "○"));
	const label = index.labelOf(entry.id);
	if (label !== undefined) node.append(el("span", "label", label));
	node.append(el("span", "preview", previewOf(entry)));
	node.title = previewOf(entry);
	return node;
}

/** Builds the sidebar over the flattened rows. */
export function createTreeView(index: SessionIndex, rows: readonly TreeRow[], options: TreeViewOptions): TreeView {
	const element = el("aside", "sidebar");
	element.id = "sidebar";
	const search = el("input", "tree-search");
	search.type = "search";
	search.id = "tree-search";
	search.placeholder = "Search entries…";
	search.setAttribute("aria-label", "Search entries");
	const filters = el("div", "tree-filters");
	filters.setAttribute("role", "group");
	const count = el("div", "tree-count");
	const scroller = el("div", "tree-scroll");
	scroller.id = "tree";
	scroller.tabIndex = 0;
	const spacer = el("div", "tree-spacer");
	scroller.append(spacer);
	element.append(el("div", "tree-controls"), scroller);
	element.firstElementChild?.append(search, filters, count);

	const finder = new TreeSearch(index);
	let mode: FilterMode = "default";
	let terms: string[] = [];
	let shown: TreeRow[] = [];
	let selected = "";
	let path: ReadonlySet<string> = new Set();
	let frame = 0;

	const paint = (): void => {
		frame = 0;
		const height = scroller.clientHeight || window.innerHeight;
		const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
		const last = Math.min(shown.length, Math.ceil((scroller.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
		const nodes: HTMLElement[] = [];
		for (let i = first; i < last; i++) nodes.push(rowElement(shown[i]!, i * ROW_HEIGHT, index, selected, path));
		spacer.replaceChildren(...nodes);
	};
	const schedule = (): void => {
		if (frame === 0) frame = requestAnimationFrame(paint);
	};
	const refilter = (): void => {
		shown = visibleRows(rows, mode, terms, index, finder);
		spacer.style.height = `${shown.length * ROW_HEIGHT}px`;
		count.textContent = `${shown.length} of ${rows.length} entries`;
		paint();
	};
	const reveal = (id: string): void => {
		const at = shown.findIndex((row) => row.entry.id === id);
		if (at < 0) return;
		const top = at * ROW_HEIGHT;
		const height = scroller.clientHeight || window.innerHeight;
		if (top < scroller.scrollTop || top + ROW_HEIGHT > scroller.scrollTop + height) {
			scroller.scrollTop = Math.max(0, top - height / 2);
		}
	};

	for (const filter of FILTER_MODES) {
		const button = el("button", filter === mode ? "filter active" : "filter", filter);
		button.type = "button";
		button.dataset.filter = filter;
		button.addEventListener("click", () => {
			mode = filter;
			for (const other of filters.children) other.classList.toggle("active", other === button);
			options.onFilter(mode);
			refilter();
		});
		filters.append(button);
	}
	let debounce = 0;
	search.addEventListener("input", () => {
		window.clearTimeout(debounce);
		debounce = window.setTimeout(() => {
			terms = searchTerms(search.value);
			refilter();
		}, 120);
	});
	scroller.addEventListener("scroll", schedule, { passive: true });
	window.addEventListener("resize", schedule);
	spacer.addEventListener("click", (event) => {
		const row = (event.target as Element | null)?.closest<HTMLElement>(".tree-row");
		if (row?.dataset.id) options.onSelect(row.dataset.id);
	});
	scroller.addEventListener("keydown", (event) => {
		if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
		event.preventDefault();
		const at = shown.findIndex((row) => row.entry.id === selected);
		const next = shown[Math.min(shown.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)))];
		if (next) options.onSelect(next.entry.id);
	});
	refilter();

	return {
		element,
		select(id, scroll) {
			selected = id;
			path = new Set(index.pathTo(id).map((entry) => entry.id));
			if (scroll) reveal(id);
			paint();
		},
	};
}
