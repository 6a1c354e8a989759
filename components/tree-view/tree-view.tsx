import { Box, Text } from "ink";
import { memo } from "react";
import { safeLine } from "../../source/render/safe-text.js";
import type { SummaryTreeNode } from "../../source/session/summary-tree.js";
import { moreMarker } from "../list/list-window.js";
import { footerLines } from "./tree-layout.js";
import type { TreeRow } from "./tree-rows.js";
import { type NavigateOptions, SUMMARY_CHOICES, type TreeViewState } from "./tree-view-reducer.js";
import { useTreeViewInput } from "./use-tree-view-input.js";
import { useTreeViewState } from "./use-tree-view-state.js";

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
}

/** Keeps the innermost connectors of a very deep graph (at most half the width), so the text stays on screen. */
function clipPrefix(prefix: string, width: number): string {
	const max = Math.max(4, Math.floor(width / 2));
	return prefix.length <= max ? prefix : `…${prefix.slice(prefix.length - max + 1)}`;
}

interface RowLineProps {
	readonly row: TreeRow;
	readonly selected: boolean;
	readonly width: number;
}

/** One tree row: cursor, connectors, fold and path markers, text, label. */
const RowLine = memo(function RowLine({ row, selected, width }: RowLineProps) {
	const fold = row.folded ? "▸ " : row.childCount > 1 ? "▾ " : "";
	const here = row.isLeaf || row.standsForLeaf;
	const marker = here ? "● " : row.onActivePath ? "• " : "";
	return (
		<Text wrap="truncate-end">
			<Text color={selected ? "cyan" : undefined}>{selected ? "❯ " : "  "}</Text>
			<Text dimColor>{clipPrefix(row.prefix, width)}</Text>
			{fold}
			<Text color="green" bold={here}>
				{marker}
			</Text>
			<Text color={selected ? "cyan" : row.onActivePath ? "green" : undefined} bold={here}>
				{safeLine(row.text)}
			</Text>
			{row.label === undefined ? null : <Text color="yellow"> [{safeLine(row.label)}]</Text>}
		</Text>
	);
});

/** The prompt under the rows for the summary choice and the text fields. */
function ModePrompt({ state }: { readonly state: TreeViewState }) {
	switch (state.mode) {
		case "browse":
			return null;
		case "summary-choice":
			return (
				<Box flexDirection="column">
					<Text bold wrap="truncate-end">
						Leaving the current branch. Summarize it?
					</Text>
					{SUMMARY_CHOICES.map((choice, index) => (
						<Text key={choice} color={index === state.choice ? "cyan" : undefined} wrap="truncate-end">
							{index === state.choice ? "❯ " : "  "}
							{choice}
						</Text>
					))}
				</Box>
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
	const { state, dispatch, list } = useTreeViewState({
		tree,
		leafId,
		height,
		initialSelectedId,
		onNavigate,
		onLabel,
		onCancel,
	});
	useTreeViewInput(dispatch, isActive);
	const { search, filter } = state;
	const rows = state.list.items;
	const empty = tree.length === 0 ? "No entries" : "No matching entries";
	return (
		<Box flexDirection="column" width={width}>
			<Text bold wrap="truncate-end">
				Session tree — {filter} (Tab: filter)
			</Text>
			{search === "" ? null : (
				<Text wrap="truncate-end">
					Search: <Text color="cyan">{safeLine(search)}</Text> ({rows.length} {rows.length === 1 ? "match" : "matches"})
				</Text>
			)}
			<Text dimColor>{moreMarker("above", list.hiddenAbove)}</Text>
			{rows.length === 0 ? (
				<Text dimColor wrap="truncate-end">
					{empty}
				</Text>
			) : null}
			{list.visibleItems.map((row, index) => (
				<RowLine key={row.id} row={row} selected={list.windowStart + index === list.selected} width={width} />
			))}
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
