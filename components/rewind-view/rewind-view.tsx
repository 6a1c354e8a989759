import { Box, Text } from "ink";
import { useCallback, useEffect } from "react";
import { matchKey } from "../../controllers/keymap.js";
import type { RestoreMode } from "../../source/checkpoints/checkpoint-data.js";
import type { PathPrompt } from "../../source/checkpoints/session-rewind.js";
import { clip } from "../../source/render/clip.js";
import { formatRelativeTime } from "../../source/render/relative-time.js";
import { safeLine } from "../../source/render/safe-text.js";
import { ListRows } from "../list/list-frame.js";
import { useList } from "../list/use-list.js";
import { RESTORE_CHOICES } from "../tree-view/tree-restore-choice.js";
import { useInputReady } from "../use-input-ready.js";
import { useLatestInput } from "../use-latest-input.js";
import { useSyncReducer } from "../use-sync-reducer.js";
import { initRewindView, rewindViewReducer } from "./rewind-view-state.js";

/** Props of `RewindView`. */
export interface RewindViewProps {
	readonly prompts: readonly PathPrompt[];
	readonly height: number;
	readonly width: number;
	readonly onRewind: (entryId: string, mode: RestoreMode) => void;
	readonly onCancel: () => void;
}

export const REWIND_TITLE = "Rewind to a prompt of this path (newest first)";
export const REWIND_LIST_FOOTER = "↑↓ move · Enter choose · Esc back";
export const REWIND_CHOICE_FOOTER = "↑↓ choose · Enter confirm · Esc back to the prompts";
export const REWIND_CHOICE_TITLE = "Go back to before this prompt:";
export const NO_PROMPTS = "No prompts on this path yet";

/** Title, both markers, footer; the choice adds its question and three choices. */
function chromeLines(mode: "list" | "choice"): number {
	return 4 + (mode === "choice" ? 4 : 0);
}

/** `/rewind`: the prompts of this path, newest first; Enter offers code and conversation, either, or Esc. */
export function RewindView({ prompts, height, width, onRewind, onCancel }: RewindViewProps) {
	const { state, dispatch } = useSyncReducer(rewindViewReducer, () =>
		initRewindView(prompts, Math.max(1, height - chromeLines("list"))),
	);
	const rows = Math.max(1, height - chromeLines(state.mode));
	if (state.list.height !== rows) dispatch({ type: "resize", rows });
	const list = useList(state.list, () => undefined);
	useLatestInput(
		useCallback(
			(input, key, paste) => {
				if (!paste) dispatch({ type: "key", action: matchKey(input, key) });
			},
			[dispatch],
		),
		true,
	);
	const { outcome } = state;
	useEffect(() => {
		if (outcome?.type === "rewind") onRewind(outcome.entryId, outcome.mode);
		else if (outcome?.type === "cancel") onCancel();
	}, [outcome, onRewind, onCancel]);
	const ready = useInputReady();
	const now = new Date();
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">
				{REWIND_TITLE}
			</Text>
			<ListRows list={list} height={rows}>
				{!ready ? null : prompts.length === 0 ? (
					<Text dimColor>{NO_PROMPTS}</Text>
				) : (
					list.visibleItems.map((prompt, i) => {
						const selected = list.windowStart + i === list.selected;
						return (
							<Text key={prompt.entryId} wrap="truncate-end" color={selected ? "cyan" : undefined}>
								{selected ? "❯ " : "  "}
								{safeLine(prompt.text)}
								<Text dimColor> · {formatRelativeTime(new Date(prompt.timestamp), now)}</Text>
							</Text>
						);
					})
				)}
			</ListRows>
			{state.mode === "choice" ? (
				<Box flexDirection="column">
					<Text bold wrap="truncate-end">
						{REWIND_CHOICE_TITLE}
					</Text>
					{RESTORE_CHOICES.map((choice, index) => (
						<Text key={choice} color={index === state.choice ? "cyan" : undefined} wrap="truncate-end">
							{index === state.choice ? "❯ " : "  "}
							{choice}
						</Text>
					))}
				</Box>
			) : null}
			<Text dimColor wrap="truncate-end">
				{clip(state.mode === "choice" ? REWIND_CHOICE_FOOTER : REWIND_LIST_FOOTER, width)}
			</Text>
		</Box>
	);
}
