import { Box, Text } from "ink";
import { useCallback } from "react";
import { matchKey } from "../../controllers/keymap.js";
import { clip } from "../../source/render/clip.js";
import { safeLine } from "../../source/render/safe-text.js";
import { moreMarker } from "../list/list-window.js";
import { useInputReady } from "../use-input-ready.js";
import { useLatestInput } from "../use-latest-input.js";
import { useSyncReducer } from "../use-sync-reducer.js";
import { type DiffLineStyle, diffLineStyle, diffScrollReducer } from "./diff-scroll.js";

/** Props of `DiffView`. */
export interface DiffViewProps {
	readonly title: string;
	readonly lines: readonly string[];
	/** Lines the view may use (title, markers and footer included). */
	readonly height: number;
	readonly width: number;
	readonly onClose: () => void;
}

/** The key hints under the diff. */
export const DIFF_FOOTER = "↑↓ scroll · PgUp/PgDn page · Home/End · Esc back to the tree";

/** Title, both markers and the footer. */
const CHROME_LINES = 4;

const STYLE: Record<DiffLineStyle, { color?: string; bold?: boolean }> = {
	header: { bold: true },
	hunk: { color: "cyan" },
	added: { color: "green" },
	removed: { color: "red" },
	plain: {},
};

/** A unified diff, scrollable and coloured (NO_COLOR takes the colour out, as for every screen). */
export function DiffView({ title, lines, height, width, onClose }: DiffViewProps) {
	const rows = Math.max(1, height - CHROME_LINES);
	const { state, dispatch } = useSyncReducer(diffScrollReducer, () => ({ start: 0, count: lines.length, rows }));
	if (state.rows !== rows) dispatch({ type: "resize", rows });
	useLatestInput(
		useCallback(
			(input, key, paste) => {
				const action = paste ? undefined : matchKey(input, key);
				if (action === "cancel" || (action === undefined && input === "q")) onClose();
				else dispatch({ type: "key", action });
			},
			[dispatch, onClose],
		),
		true,
	);
	const ready = useInputReady();
	const shown = lines.slice(state.start, state.start + rows);
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">
				{title}
			</Text>
			<Text dimColor>{moreMarker("above", state.start)}</Text>
			<Box flexDirection="column" height={rows}>
				{ready
					? shown.map((line, i) => (
							// biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines repeat and never reorder
							<Text key={state.start + i} wrap="truncate-end" {...STYLE[diffLineStyle(line)]}>
								{safeLine(line.replace(/\t/g, "    ")) || " "}
							</Text>
						))
					: null}
			</Box>
			<Text dimColor>{moreMarker("below", Math.max(0, lines.length - state.start - rows))}</Text>
			<Text dimColor wrap="truncate-end">
				{clip(DIFF_FOOTER, width)}
			</Text>
		</Box>
	);
}
