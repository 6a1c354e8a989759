import { Box, Text } from "ink";
import { useCallback, useRef, useState } from "react";
import stringWidth from "string-width";
import { matchConfirmScreenKey } from "../controllers/keymap.js";
import { safeLine, safeText } from "../source/render/safe-text.js";
import { DIALOG_FRAME_COLUMNS, DIALOG_FRAME_ROWS, fitLines } from "./fit-text.js";
import { listWindow, moreMarker } from "./list/list-window.js";
import { useInputReady } from "./use-input-ready.js";
import { useLatestInput } from "./use-latest-input.js";
import { useTerminalSize } from "./use-terminal-size.js";

/** Props of ConfirmScreen. */
export interface ConfirmScreenProps {
	readonly title: string;
	readonly details: readonly string[];
	/** The verb on the yes key ("share"), from the command. */
	readonly confirmLabel: string;
	/** What `v` shows ("what is redacted"), from the command. */
	readonly detailsLabel: string;
	readonly onConfirm: () => void;
	readonly onCancel: () => void;
}

/** Where each part of the dialog goes on a terminal of `columns`×`rows` (the app keeps the last row free). */
function confirmLayout(title: string, detailCount: number, showDetails: boolean, columns: number, rows: number) {
	const inner = Math.max(1, rows - 1 - DIALOG_FRAME_ROWS);
	const width = Math.max(1, columns - DIALOG_FRAME_COLUMNS);
	// The footer always shows; with the details open the title gets at most a third of the box.
	const titleRoom = showDetails ? Math.max(1, Math.floor(inner / 3)) : Math.max(1, inner - 1);
	const titleLines = fitLines(title, width, titleRoom);
	const detailRows = showDetails ? Math.max(1, inner - 1 - titleLines.length - 2) : 0;
	return { titleLines, detailRows, maxStart: Math.max(0, detailCount - detailRows) };
}

/** The key hints, in their short form when the long one does not fit `width`. */
function footer(labels: { confirm: string; details: string }, showDetails: boolean, width: number): string {
	const long = showDetails
		? `Enter/y ${labels.confirm} · v hide ${labels.details} · ↑↓ scroll · Esc/n cancel`
		: `Enter/y ${labels.confirm} · v view ${labels.details} · Esc/n cancel`;
	if (stringWidth(long) <= width) return long;
	return showDetails
		? `y ${labels.confirm} · v hide · ↑↓ · Esc/n cancel`
		: `y ${labels.confirm} · v details · Esc/n cancel`;
}

/** Asks before an action leaves the machine: Enter / y confirms, v shows what was found, Esc / n cancels. */
export function ConfirmScreen({ title, details, confirmLabel, detailsLabel, onConfirm, onCancel }: ConfirmScreenProps) {
	const { columns, rows } = useTerminalSize();
	const [showDetails, setShowDetails] = useState(false);
	const [start, setStart] = useState(0);
	// The last scroll position depends on the layout: read through a ref so the handler stays stable.
	const maxStart = useRef(0);
	// One answer per dialog: a key after it in the same read (a double y) must not answer again,
	// least of all a dialog that its command opened next.
	const answeredFor = useRef<readonly string[] | null>(null);
	useLatestInput(
		useCallback(
			(input, key, paste) => {
				if (paste || answeredFor.current === details) return;
				const action = matchConfirmScreenKey(input, key);
				if (action === "confirm" || action === "decline") answeredFor.current = details;
				if (action === "confirm") onConfirm();
				else if (action === "decline") onCancel();
				else if (action === "toggleDetails") setShowDetails((v) => !v);
				else if (action === "up") setStart((s) => Math.max(0, s - 1));
				else if (action === "down") setStart((s) => Math.min(maxStart.current, s + 1));
			},
			[details, onConfirm, onCancel],
		),
		true,
	);
	const ready = useInputReady();
	if (!ready) return null;
	const layout = confirmLayout(safeText(title), details.length, showDetails, columns, rows);
	maxStart.current = layout.maxStart;
	const shown = listWindow(Math.min(start, layout.maxStart), details.length, layout.detailRows);
	return (
		<Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={columns}>
			{layout.titleLines.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the wrapped lines of one title never reorder
				<Text key={i} color="yellow" wrap="truncate-end">
					{line}
				</Text>
			))}
			{showDetails ? (
				<>
					<Text dimColor>{moreMarker("above", shown.above)}</Text>
					{details.slice(shown.start, shown.end).map((line, i) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: two findings can read the same
						<Text key={i} wrap="truncate-end">
							{safeLine(line)}
						</Text>
					))}
					<Text dimColor>{moreMarker("below", shown.below)}</Text>
				</>
			) : null}
			<Text dimColor wrap="truncate-end">
				{footer(
					{ confirm: safeLine(confirmLabel), details: safeLine(detailsLabel) },
					showDetails,
					columns - DIALOG_FRAME_COLUMNS,
				)}
			</Text>
		</Box>
	);
}
