import type { CommandResult } from "../source/commands/types.js";
import type { AppScreen } from "./app-state.js";

/** A command's confirm step, held until the person answers it. */
export type Confirm = Extract<CommandResult, { kind: "confirm" }>;

/** What a command's result can do to the app. */
export interface ResultActions {
	notice(level: "info" | "warning" | "error", text: string): void;
	redraw(): void;
	setEditorText(text: string): void;
	openScreen(screen: "resume" | "tree" | "rewind"): void;
	show(screen: AppScreen): void;
	openSearch(query: string): void;
	confirmFirst(confirm: Confirm): void;
	exit(): void;
}

/** Carries out a finished command's result: a notice, a redraw, a screen, a confirm step or quitting. */
export function applyCommandResult(result: CommandResult, app: ResultActions): void {
	switch (result.kind) {
		case "done":
			return;
		case "notice":
			app.notice(result.level, result.text);
			return;
		case "redraw":
			app.redraw();
			if (result.text) app.notice("info", result.text);
			if (result.editorText !== undefined) app.setEditorText(result.editorText);
			return;
		case "open":
			app.openScreen(result.screen);
			return;
		case "pick-model":
			app.show({ kind: "model", current: result.current, models: result.models });
			return;
		case "search":
			app.openSearch(result.query);
			app.show({ kind: "search" });
			return;
		case "quit":
			app.exit();
			return;
		case "confirm": {
			app.confirmFirst(result);
			const { title, details, confirmLabel, detailsLabel } = result;
			app.show({ kind: "confirm", title, details, confirmLabel, detailsLabel });
			return;
		}
	}
}
