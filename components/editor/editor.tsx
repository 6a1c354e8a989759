import { Box, Text } from "ink";
import { useEffect, useRef } from "react";
import type { KeyAction } from "../../controllers/keymap.js";
import type { PathCompletion } from "../../source/path-completion.js";
import { listWindow, windowStartFor } from "../list/list-window.js";
import { type EditorBuffer, graphemes, isEmpty } from "./editor-buffer.js";
import { useEditorInput } from "./use-editor-input.js";
import {
	bareCommandName,
	currentMatch,
	type HistorySearchState,
	type SlashCommand,
	useEditorState,
	visibleCommands,
} from "./use-editor-state.js";

/** Props of `Editor`. */
export interface EditorProps {
	/** Total width including the border. */
	readonly width: number;
	readonly isActive: boolean;
	/** Earlier prompts, newest first, for ↑/↓. */
	readonly history: readonly string[];
	/** Prompts matching a Ctrl+R query, best first; called on every change of the query. */
	readonly searchHistory: (query: string) => readonly string[];
	readonly commands: readonly SlashCommand[];
	/** Tab completion of the path before the cursor (the app completes relative to the session's directory). */
	readonly completePath: (token: string) => PathCompletion;
	/**
	 * Tab completion of a slash command's argument from the line before the cursor; `undefined`
	 * leaves it to `completePath`.
	 */
	readonly completeArgument?: (line: string) => PathCompletion | undefined;
	readonly placeholder?: string;
	/** Greys the editor out and ignores typing; Escape and Ctrl+C are still reported. */
	readonly disabled?: boolean;
	/** A non-blank text on Enter; the editor clears itself afterwards unless this returns `false` (refused). */
	readonly onSubmit: (text: string) => boolean | undefined;
	/** Escape on an empty editor (with no popup open). */
	readonly onEscape: () => void;
	/** Ctrl+C; the app decides whether to clear (change `textKey`) or exit. */
	readonly onInterrupt: (isEmpty: boolean) => void;
	/**
	 * Keys the screen takes before the editor (the chat's transcript keys), so that the screen has
	 * one input handler: true when it took the key.
	 */
	readonly onScreenKey?: (action: KeyAction) => boolean;
	/** The mouse wheel over the screen. */
	readonly onWheel?: (direction: -1 | 1) => void;
	/** The text to start with, and the text put in whenever `textKey` changes. */
	readonly initialText?: string;
	/**
	 * Change it to replace the editor's content with `initialText` (cursor at the end), e.g. to put a
	 * user message back for editing, or to clear after Ctrl+C. Changing only `initialText` does nothing.
	 */
	readonly textKey?: string | number;
	/**
	 * Every change of the text, as it happens (not called for the initial text). The owner keeps it
	 * to mount the editor again with the same text after another screen was shown.
	 */
	readonly onChange?: (text: string) => void;
}

const MAX_LIST_ROWS = 8;
const TAB = "    ";
const PROMPT = "› ";
const INDENT = "  ";
/** Border (2) + horizontal padding (2) + prompt (2). */
const CHROME_WIDTH = 6;

/** The prompt editor: a bordered multi-line input with history, Ctrl+R search and completion. */
export function Editor(props: EditorProps) {
	const { width, isActive, placeholder, disabled = false, initialText, textKey, onChange } = props;
	const store = useEditorState(initialText, onChange);
	const { state, dispatch } = store;
	useEditorInput(store, {
		isActive,
		disabled,
		history: props.history,
		searchHistory: props.searchHistory,
		commands: props.commands,
		completePath: props.completePath,
		...(props.completeArgument ? { completeArgument: props.completeArgument } : {}),
		onSubmit: props.onSubmit,
		onEscape: props.onEscape,
		onInterrupt: props.onInterrupt,
		onScreenKey: props.onScreenKey,
		onWheel: props.onWheel,
	});

	const appliedKey = useRef(textKey);
	useEffect(() => {
		if (appliedKey.current === textKey) return;
		appliedKey.current = textKey;
		dispatch({ type: "setText", text: initialText ?? "" });
	}, [textKey, initialText, dispatch]);

	const textWidth = Math.max(1, width - CHROME_WIDTH);
	const showCursor = isActive && !disabled;
	const commands = visibleCommands(state, props.commands);
	return (
		<Box flexDirection="column" width={width}>
			<Box borderStyle="round" borderColor={disabled ? "gray" : "cyan"} paddingX={1} flexDirection="column">
				{state.search !== undefined ? (
					<SearchLine search={state.search} />
				) : isEmpty(state.buffer) ? (
					<Placeholder text={placeholder ?? ""} showCursor={showCursor} />
				) : (
					layoutRows(state.buffer, textWidth, showCursor).map((row, index) => (
						<Text key={row.key} wrap="truncate" dimColor={disabled}>
							<Text color="cyan">{index === 0 ? PROMPT : INDENT}</Text>
							{row.before}
							{row.cursor !== undefined && <Text inverse>{row.cursor}</Text>}
							{row.after}
						</Text>
					))
				)}
			</Box>
			{commands.length > 0 && (
				<CommandList commands={commands} selected={Math.min(state.completion.selected, commands.length - 1)} />
			)}
			{commands.length === 0 && state.completion.paths.length > 0 && <PathList paths={state.completion.paths} />}
		</Box>
	);
}

function SearchLine({ search }: { readonly search: HistorySearchState }) {
	// Multi-line matches are shown on one line; the editor gets the real text on accept.
	const match = (currentMatch(search) ?? "").replaceAll("\n", " ⏎ ");
	return (
		<Text wrap="truncate">
			<Text color="yellow">(reverse-i-search)'{search.query}': </Text>
			{match}
		</Text>
	);
}

function Placeholder({ text, showCursor }: { readonly text: string; readonly showCursor: boolean }) {
	const [first = " ", ...rest] = graphemes(text);
	const tail = rest.join("");
	return (
		<Text wrap="truncate">
			<Text color="cyan">{PROMPT}</Text>
			{showCursor ? <Text inverse>{first}</Text> : <Text dimColor>{first}</Text>}
			<Text dimColor>{tail}</Text>
		</Text>
	);
}

function CommandList({
	commands,
	selected,
}: {
	readonly commands: readonly SlashCommand[];
	readonly selected: number;
}) {
	const { start, end } = listWindow(
		windowStartFor(selected, commands.length, MAX_LIST_ROWS),
		commands.length,
		MAX_LIST_ROWS,
	);
	const nameWidth = Math.max(...commands.map((command) => bareCommandName(command.name).length)) + 1;
	return (
		<Box flexDirection="column" paddingLeft={2}>
			{commands.slice(start, end).map((command, offset) => {
				const index = start + offset;
				const isSelected = index === selected;
				// ▲/▼ in the gutter say more rows are hidden; with a centred window they never clash with ▸.
				const gutter = isSelected
					? "▸ "
					: offset === 0 && start > 0
						? "▲ "
						: index === end - 1 && end < commands.length
							? "▼ "
							: "  ";
				return (
					<Text key={command.name} wrap="truncate" color={isSelected ? "cyan" : undefined} bold={isSelected}>
						{gutter}
						{`/${bareCommandName(command.name)}`.padEnd(nameWidth + 2)}
						<Text dimColor={!isSelected}>{command.description}</Text>
					</Text>
				);
			})}
		</Box>
	);
}

function PathList({ paths }: { readonly paths: readonly string[] }) {
	const hidden = paths.length - MAX_LIST_ROWS;
	const shown = hidden > 0 ? paths.slice(0, MAX_LIST_ROWS - 1) : paths;
	return (
		<Box flexDirection="column" paddingLeft={2}>
			{shown.map((path) => (
				<Text key={path} wrap="truncate">
					{INDENT}
					{path}
				</Text>
			))}
			{hidden > 0 && <Text dimColor>{`${INDENT}… +${paths.length - shown.length} more`}</Text>}
		</Box>
	);
}

/** One screen row of the text: the cursor cell (if on this row) splits it. */
interface Row {
	/** `line.segment`: where the row sits in the text, stable while typing. */
	readonly key: string;
	readonly before: string;
	readonly cursor: string | undefined;
	readonly after: string;
}

/** Hard-wraps every line to `width` columns; the cursor at a line's end takes a cell of its own. */
function layoutRows(buffer: EditorBuffer, width: number, showCursor: boolean): Row[] {
	const rows: Row[] = [];
	buffer.lines.forEach((line, lineIndex) => {
		const cells = graphemes(line).map((char) => ({ text: char === "\t" ? TAB : char, width: cellWidth(char) }));
		const cursorAt = showCursor && lineIndex === buffer.row ? buffer.col : -1;
		if (cursorAt === cells.length) cells.push({ text: " ", width: 1 });
		let current: { text: string; index: number }[] = [];
		let used = 0;
		let segment = 0;
		const flush = () => {
			const at = current.findIndex((cell) => cell.index === cursorAt);
			const texts = current.map((cell) => cell.text);
			const key = `${lineIndex}.${segment++}`;
			rows.push(
				at === -1
					? { key, before: texts.join(""), cursor: undefined, after: "" }
					: { key, before: texts.slice(0, at).join(""), cursor: texts[at], after: texts.slice(at + 1).join("") },
			);
			current = [];
			used = 0;
		};
		cells.forEach((cell, index) => {
			if (used + cell.width > width && current.length > 0) flush();
			current.push({ text: cell.text, index });
			used += cell.width;
		});
		flush();
	});
	return rows;
}

const WIDE =
	/\p{Emoji_Presentation}|\uFE0F|[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{20000}-\u{3FFFD}]/u;

/** Terminal columns of one grapheme; close enough to Ink's string-width for emoji and CJK. */
function cellWidth(char: string): number {
	if (char === "\t") return TAB.length;
	return WIDE.test(char) ? 2 : 1;
}
