import type { TreeViewState } from "./tree-view-reducer.js";

/** The key hints under the tree, per mode. */
export function footerLines(state: Pick<TreeViewState, "mode" | "search">): readonly string[] {
	switch (state.mode) {
		case "browse":
			return [
				"↑↓ move · PgUp/PgDn page · Home/End · ←→ fold · Enter go to entry",
				state.search === ""
					? "Tab filter · type to search · d diff · l label · Esc close"
					: "Tab filter · Backspace edit search · Esc clear search",
			];
		case "checking":
			return ["Esc back"];
		case "restore-choice":
		case "summary-choice":
			return ["↑↓ choose · Enter confirm · Esc back"];
		case "instructions":
			return ["Enter summarize · Esc back"];
		case "label":
			return ["Enter save · empty text clears the label · Esc cancel"];
		default: {
			const unknown: never = state.mode;
			return [unknown];
		}
	}
}

/** Lines of the summary question or the text field under the rows. */
function promptLines(mode: TreeViewState["mode"]): number {
	switch (mode) {
		case "browse":
			return 0;
		case "restore-choice":
		case "summary-choice":
			// The question and the three choices.
			return 4;
		case "checking":
			return 1;
		case "instructions":
		case "label":
			return 1;
		default: {
			const unknown: never = mode;
			return unknown;
		}
	}
}

/** Every line the tree view draws besides its rows: title, search, both markers, prompt and footer. */
export function treeChromeLines(state: Pick<TreeViewState, "mode" | "search">): number {
	return 1 + (state.search === "" ? 0 : 1) + 2 + promptLines(state.mode) + footerLines(state).length;
}
