import { Box, Text } from "ink";
import { useCallback, useRef } from "react";
/** What to do with a session another xcsh has open. */
import type { LockedChoice } from "../controllers/app-controller.js";
import { type KeyAction, matchChoiceLetter, matchKey } from "../controllers/keymap.js";
import { safeText } from "../source/render/safe-text.js";
import { DIALOG_FRAME_COLUMNS, DIALOG_FRAME_ROWS, fitLines } from "./fit-text.js";
import { useListState } from "./list/use-list.js";
import { useInputReady } from "./use-input-ready.js";
import { useLatestInput } from "./use-latest-input.js";
import { useTerminalSize } from "./use-terminal-size.js";

export type { LockedChoice };

/** Props of LockedSessionChoice. */
export interface LockedSessionChoiceProps {
	readonly message: string;
	readonly onChoose: (choice: LockedChoice) => void;
}

const ITEMS: readonly { readonly key: string; readonly label: string; readonly value: LockedChoice }[] = [
	{ key: "f", label: "Fork it into a new session", value: "fork" },
	{ key: "r", label: "Open it read-only (browse, export, no new messages)", value: "read-only" },
	{ key: "c", label: "Cancel", value: "cancel" },
];

const LETTERS = ITEMS.map((item) => item.key);

/** The choice a key makes: Enter the selected one, Escape cancel, a letter its item. */
function chosen(
	action: KeyAction | undefined,
	letter: string | undefined,
	focused: LockedChoice | undefined,
): LockedChoice | undefined {
	if (action === "submit") return focused;
	if (action === "cancel") return "cancel";
	return ITEMS.find((item) => item.key === letter)?.value;
}

/** The offer made when the chosen session is open in another xcsh: ↑/↓ + Enter, or f / r / c. */
export function LockedSessionChoice({ message, onChoose }: LockedSessionChoiceProps) {
	const { columns, rows } = useTerminalSize();
	const choices = useListState(ITEMS, ITEMS.length, { wrap: true });
	// One answer per question: a key after it in the same read must not answer again.
	const answeredFor = useRef<string | null>(null);
	useLatestInput(
		useCallback(
			(input, key, paste) => {
				if (paste || answeredFor.current === message) return;
				const action = matchKey(input, key);
				if (choices.moveFor(action)) return;
				const letter = matchChoiceLetter(input, key, LETTERS);
				const choice = chosen(action, letter, choices.getFocused()?.value);
				if (choice === undefined) return;
				answeredFor.current = message;
				onChoose(choice);
			},
			[choices, message, onChoose],
		),
		true,
	);
	const ready = useInputReady();
	if (!ready) return null;
	// The choices always show; the message gets the rows left inside the border (the app keeps the last row free).
	const messageRows = rows - 1 - DIALOG_FRAME_ROWS - ITEMS.length;
	const lines = fitLines(safeText(message), columns - DIALOG_FRAME_COLUMNS, messageRows);
	return (
		<Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={columns}>
			{lines.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the wrapped lines of one message never reorder
				<Text key={i} color="yellow" wrap="truncate-end">
					{line}
				</Text>
			))}
			{ITEMS.map((item, i) => (
				<Text key={item.value} wrap="truncate-end" {...(i === choices.selected ? { color: "cyan" } : {})}>
					{i === choices.selected ? "❯ " : "  "}
					{item.label} <Text dimColor>({item.key})</Text>
				</Text>
			))}
		</Box>
	);
}
