import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { matchKey } from "../../controllers/keymap.js";
import type { ModelChoice } from "../../source/commands/types.js";
import { clip } from "../../source/render/clip.js";
import { safeLine } from "../../source/render/safe-text.js";
import { FilterLine, ListRows } from "../list/list-frame.js";
import { filterKeyFor } from "../list/list-keys.js";
import { useList } from "../list/use-list.js";
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

/** The `/model` picker: the available models, filterable and windowed; Enter picks, Escape goes back. */
export function ModelPicker({ models, current, height, width, onSelect, onCancel }: ModelPickerProps) {
	const rows = Math.max(1, height - CHROME_LINES);
	const { state, dispatch, getState } = useSyncReducer(modelPickerReducer, () =>
		initialModelPickerState(models, current, rows),
	);
	if (state.list.height !== rows) dispatch({ type: "sync", all: state.all, height: rows });
	const list = useList(state.list, dispatch);
	useLatestInput((input, key, paste) => {
		const action = paste ? undefined : matchKey(input, key);
		if (list.moveFor(action)) return;
		// The latest state, not the rendered one: the keys before this one in the same read count.
		const { filter, list: latest } = getState();
		if (action === "submit") {
			const model = latest.items[latest.selected];
			if (model) onSelect(model.ref);
			return;
		}
		const edit = filterKeyFor(action, input, key, filter);
		if (edit === "close") onCancel();
		else if (edit) dispatch({ type: "filter", edit });
	}, true);
	const ready = useInputReady();
	const visible = list.visibleItems;
	let body: ReactNode;
	if (!ready) body = null;
	else if (models.length === 0) body = <Text dimColor>No models available</Text>;
	else if (visible.length === 0)
		body = <Text dimColor wrap="truncate">{`No models match "${safeLine(state.filter)}"`}</Text>;
	else
		body = visible.map((model, i) => {
			const selected = list.windowStart + i === list.selected;
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
			<FilterLine filter={state.filter} />
			<ListRows list={list} height={rows}>
				{body}
			</ListRows>
			<Text dimColor wrap="truncate">
				{clip(MODEL_PICKER_FOOTER, width)}
			</Text>
		</Box>
	);
}
