import { Box, Text } from "ink";
import { useMemo } from "react";
import { safeLine } from "../../source/render/safe-text.js";
import type { SummaryTreeNode } from "../../source/session/summary-tree.js";
import { moreMarker } from "../list/list-window.js";
import { PaintedRows } from "../list/painted-rows.js";
import { footerLines } from "./tree-layout.js";
import { RESTORE_CHOICES } from "./tree-restore-choice.js";
import { TreeRowLines } from "./tree-row-line.js";
import {
	type CodeCheck,
	type CodeRestore,
	type NavigateOptions,
	SUMMARY_CHOICES,
	type TreeViewState,
} from "./tree-view-reducer.js";
import { useTreeViewInput } from "./use-tree-view-input.js";
import { useTreeViewState } from "./use-tree-view-state.js";

export { fileCountLabel } from "./tree-row-line.js";

/** Props of `TreeView`. */
export interface TreeViewProps {
	readonly tree: readonly SummaryTreeNode[];
	readonly leafId: string | null;
	/** Lines the view may use: title, markers, prompts and footer included; the rows get the rest. */
	readonly height: number;
	readonly width: number;
	readonly isActive: boolean;
	/** The entry the selection starts on (e.g. a search hit on another branch); default the leaf. */
	readonly initialSelectedId?: string | undefined;
	readonly onNavigate: (entryId: string, options: NavigateOptions) => void;
	readonly onLabel: (entryId: string, label: string | undefined) => void;
	readonly onCancel: () => void;
	/** Per entry, the files its turn changed (`±N files` on its row). */
	readonly fileCounts?: ReadonlyMap<string, number> | undefined;
	/** Compares an entry's files with the working tree; without it, Enter navigates as before checkpoints. */
	readonly onCheckCode?: ((entryId: string) => Promise<CodeCheck>) | undefined;
	readonly onRestore?: ((entryId: string, mode: CodeRestore, options: NavigateOptions) => void) | undefined;
	readonly onDiff?: ((entryId: string) => void) | undefined;
}

/** The question over the restore choices. */
export function restoreQuestion(files: number): string {
	return `The files at this entry differ from the working tree (${files} file${files === 1 ? "" : "s"}). Restore them?`;
}

/** Shown while the files at the entry are compared with the working tree. */
export const CHECKING_FILES = "Comparing the files at this entry with the working tree…";

/** A question and its choices, the focused one marked. */
function Choices(props: { readonly title: string; readonly choices: readonly string[]; readonly focused: number }) {
	return (
		<Box flexDirection="column">
			<Text bold wrap="truncate-end">
				{props.title}
			</Text>
			{props.choices.map((choice, index) => (
				<Text key={choice} color={index === props.focused ? "cyan" : undefined} wrap="truncate-end">
					{index === props.focused ? "❯ " : "  "}
					{choice}
				</Text>
			))}
		</Box>
	);
}

/** The prompt under the rows for the summary choice and the text fields. */
function ModePrompt({ state }: { readonly state: TreeViewState }) {
	switch (state.mode) {
		case "browse":
			return null;
		case "checking":
			return (
				<Text dimColor wrap="truncate-end">
					{CHECKING_FILES}
				</Text>
			);
		case "restore-choice":
			return <Choices title={restoreQuestion(state.codeFiles)} choices={RESTORE_CHOICES} focused={state.choice} />;
		case "summary-choice":
			return (
				<Choices title="Leaving the current branch. Summarize it?" choices={SUMMARY_CHOICES} focused={state.choice} />
			);
		case "instructions":
			return (
				<Text wrap="truncate-start">
					<Text bold>Instructions: </Text>
					{state.text}█
				</Text>
			);
		case "label":
			return (
				<Text wrap="truncate-start">
					<Text bold>Label: </Text>
					{state.text}█
				</Text>
			);
		default: {
			const unknown: never = state.mode;
			return unknown;
		}
	}
}

/** The `/tree` view: the session's entries as a graph to browse, filter, search, fold, label and navigate. */
export function TreeView(props: TreeViewProps) {
	const { tree, leafId, height, width, isActive, initialSelectedId, onNavigate, onLabel, onCancel } = props;
	const { fileCounts, onCheckCode, onRestore, onDiff } = props;
	const { state, dispatch, list } = useTreeViewState({
		tree,
		leafId,
		height,
		initialSelectedId,
		onNavigate,
		onLabel,
		onCancel,
		onCheckCode,
		onRestore,
		onDiff,
	});
	useTreeViewInput(dispatch, isActive);
	const lines = useMemo(() => new TreeRowLines(), []);
	const { search, filter } = state;
	const rowCount = state.list.rows.count;
	const empty = tree.length === 0 ? "No entries" : "No matching entries";
	return (
		<Box flexDirection="column" width={width}>
			<Text bold wrap="truncate-end">
				Session tree — {filter} (Tab: filter)
			</Text>
			{search === "" ? null : (
				<Text wrap="truncate-end">
					Search: <Text color="cyan">{safeLine(search)}</Text> ({rowCount} {rowCount === 1 ? "match" : "matches"})
				</Text>
			)}
			<Text dimColor>{moreMarker("above", list.hiddenAbove)}</Text>
			{rowCount === 0 ? (
				<Text dimColor wrap="truncate-end">
					{empty}
				</Text>
			) : null}
			<PaintedRows
				rows={list.visibleItems.map((row, index) =>
					lines.line(row, list.windowStart + index === list.selected, width, fileCounts?.get(row.id)),
				)}
				width={width}
			/>
			<Text dimColor>{moreMarker("below", list.hiddenBelow)}</Text>
			<ModePrompt state={state} />
			{footerLines(state).map((line) => (
				<Text key={line} dimColor wrap="truncate-end">
					{line}
				</Text>
			))}
		</Box>
	);
}
