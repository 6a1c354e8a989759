import { Box, Text, useInput } from "ink";
import { useCallback, useRef, useState } from "react";
/** What to do with a session another xcsh has open. */
import type { LockedChoice } from "../controllers/app-controller.js";
import { matchKey } from "../controllers/keymap.js";
import { safeText } from "../source/render/safe-text.js";
import { DIALOG_FRAME_COLUMNS, DIALOG_FRAME_ROWS, fitLines } from "./fit-text.js";
import { useInputReady } from "./use-input-ready.js";
import { useTerminalSize } from "./use-terminal-size.js";

export type { LockedChoice };

/** Props of LockedSessionChoice. */
export interface LockedSessionChoiceProps {
	readonly message: string;
	readonly onChoose: (choice: LockedChoice) => void;
}

const ITEMS: { key: string; label: string; value: LockedChoice }[] = [
	{ key: "f", label: "Fork it into a new session", value: "fork" },
	{ key: "r", label: "Open it read-only (browse, export, no new messages)", value: "read-only" },
	{ key: "c", label: "Cancel", value: "cancel" },
];

/** The offer made when the chosen session is open in another xcsh: ↑/↓ + Enter, or f / r / c. */
export function LockedSessionChoice({ message, onChoose }: LockedSessionChoiceProps) {
	const { columns, rows } = useTerminalSize();
	const [selected, setSelected] = useState(0);
	// Read through a ref: an Enter right after an arrow must see the new selection.
	const current = useRef(0);
	const move = useCallback((delta: number) => {
		current.current = (current.current + delta + ITEMS.length) % ITEMS.length;
		setSelected(current.current);
	}, []);
	useInput(
		useCallback(
			(input, key) => {
				const action = matchKey(input, key);
				if (action === "up") move(-1);
				else if (action === "down") move(1);
				else if (action === "submit") onChoose(ITEMS[current.current]!.value);
				else if (action === "cancel") onChoose("cancel");
				else {
					const item = ITEMS.find((i) => i.key === input.toLowerCase());
					if (item) onChoose(item.value);
				}
			},
			[move, onChoose],
		),
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
				<Text key={item.value} wrap="truncate-end" {...(i === selected ? { color: "cyan" } : {})}>
					{i === selected ? "❯ " : "  "}
					{item.label} <Text dimColor>({item.key})</Text>
				</Text>
			))}
		</Box>
	);
}
