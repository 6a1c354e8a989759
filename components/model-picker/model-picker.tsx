import { Box, type Key, Text } from "ink";
import type { ReactNode } from "react";
import { matchKey } from "../../controllers/keymap.js";
import type { ModelChoice } from "../../source/commands/types.js";
import { clip } from "../../source/render/clip.js";
import { safeLine } from "../../source/render/safe-text.js";
import { listWindow, moreMarker } from "../list-window.js";
import { useInputReady } from "../use-input-ready.js";
import { useLatestInput } from "../use-latest-input.js";
import { useSyncReducer } from "../use-sync-reducer.js";
import { initialModelPickerState, modelPickerReducer } from "./model-picker-state.js";

/** Props of `ModelPicker`. */
export interface ModelPickerProps {
	readonly models: readonly ModelChoice[];
	/** The ref of the model in use: marked, and selected when the picker opens. */
	readonly current: string;
	/** Lines the picker may use; it renders exactly this many. */
	readonly height: number;
	readonly width: number;
	readonly onSelect: (ref: string) => void;
	readonly onCancel: () => void;
}

/** Title, filter, ▲ marker, ▼ marker and footer: the lines that are not rows. */
const CHROME_LINES = 5;
export const MODEL_PICKER_FOOTER = "↑↓ move · type to filter · Enter switch · Esc back";

/** `200k ctx` for a context window. */
function windowLabel(tokens: number): string {
	if (tokens <= 0) return "";
	return tokens >= 1_000_000 ? `${+(tokens / 1_000_000).toFixed(1)}M ctx` : `${Math.round(tokens / 1000)}k ctx`;
}

/** What a row says after the ref: the display name (when it adds something), the window, thinking. */
function detailsOf(model: ModelChoice): string {
	const id = model.ref.slice(model.ref.indexOf("/") + 1);
	const name = model.name !== model.ref && model.name !== id ? model.name : "";
	return [name, windowLabel(model.contextWindow), model.reasoning ? "thinks" : ""].filter(Boolean).join(" · ");
}

/** Text a key types into the filter: control characters dropped, pasted line breaks become spaces. */
function typedText(input: string, key: Key): string {
	if (key.ctrl || key.meta) return "";
	return input.replace(/[\r\n\t]+/g, " ").replace(/\p{Cc}/gu, "");
}

/** The `/model` picker: the available models, filterable and windowed; Enter picks, Escape goes back. */
export function ModelPicker({ models, current, height, width, onSelect, onCancel }: ModelPickerProps) {
	const rows = Math.max(1, height - CHROME_LINES);
	const { state, dispatch, getState } = useSyncReducer(modelPickerReducer, () =>
		initialModelPickerState(models, current, rows),
	);
	if (state.rows !== rows) dispatch({ type: "resize", rows });
	useLatestInput((input, key, paste) => {
		// The latest state, not the rendered one: the keys before this one in the same read count.
		const { filter, matches, selected } = getState();
		const action = paste ? undefined : matchKey(input, key);
		switch (action) {
			case "up":
				return dispatch({ type: "move", delta: -1 });
			case "down":
				return dispatch({ type: "move", delta: 1 });
			case "pageUp":
				return dispatch({ type: "page", direction: -1 });
			case "pageDown":
				return dispatch({ type: "page", direction: 1 });
			case "home":
				return dispatch({ type: "first" });
			case "end":
				return dispatch({ type: "last" });
			case "submit": {
				const model = matches[selected];
				if (model) onSelect(model.ref);
				return;
			}
			case "cancel":
				// Escape peels one layer: the filter first, then the picker itself.
				if (filter.length > 0) dispatch({ type: "clearFilter" });
				else onCancel();
				return;
			case "backspace":
			case "delete":
				return dispatch({ type: "backspace" });
			case "killLine":
				return dispatch({ type: "clearFilter" });
			case undefined: {
				const text = typedText(input, key);
				if (text.length > 0) dispatch({ type: "type", text });
				return;
			}
			default:
				return;
		}
	}, true);
	const ready = useInputReady();
	const window = listWindow(state.windowStart, state.matches.length, state.rows);
	const visible = state.matches.slice(window.start, window.end);
	let body: ReactNode;
	if (!ready) body = null;
	else if (models.length === 0) body = <Text dimColor>No models available</Text>;
	else if (visible.length === 0)
		body = <Text dimColor wrap="truncate">{`No models match "${safeLine(state.filter)}"`}</Text>;
	else
		body = visible.map((model, i) => {
			const selected = window.start + i === state.selected;
			const isCurrent = model.ref === current;
			const details = detailsOf(model);
			return (
				<Text key={model.ref} wrap="truncate">
					<Text
						color={isCurrent ? "green" : selected ? "cyan" : undefined}
					>{`${selected ? "›" : " "} ${isCurrent ? "●" : " "} `}</Text>
					<Text color={selected ? "cyan" : undefined} bold={selected}>
						{safeLine(model.ref)}
					</Text>
					<Text dimColor>{details ? `  ${safeLine(details)}` : ""}</Text>
				</Text>
			);
		});
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate">
				{`Switch model — now ${safeLine(current)}`}
			</Text>
			<Text wrap="truncate">
				<Text dimColor>Filter: </Text>
				{state.filter.length > 0 ? <Text>{safeLine(state.filter)}</Text> : <Text dimColor>type to search</Text>}
			</Text>
			<Text dimColor>{moreMarker("above", window.above)}</Text>
			<Box flexDirection="column" height={rows}>
				{body}
			</Box>
			<Text dimColor>{moreMarker("below", window.below)}</Text>
			<Text dimColor wrap="truncate">
				{clip(MODEL_PICKER_FOOTER, width)}
			</Text>
		</Box>
	);
}
