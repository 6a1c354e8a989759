import { Box, type DOMElement, measureElement, Text } from "ink";
import { useContext, useEffect, useInsertionEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ScrollAnchor, TranscriptSource, ViewportWindow } from "../../controllers/transcript-viewport.js";
import { viewportWindow } from "../../controllers/transcript-viewport.js";
import { yellow } from "../../source/render/paint.js";
import { screenTop } from "../list/painted-rows.js";
import { oneRow } from "./item-rows.js";
import { RowPainterContext } from "./row-painter-context.js";
import { type TranscriptParts, transcriptSource } from "./transcript-source.js";

/** Props of ChatView. */
export interface ChatViewProps {
	readonly parts: TranscriptParts;
	readonly showThinking: boolean;
	readonly expandTools: boolean;
	readonly width: number;
	/** Rows to draw before the view has measured the space the layout gives it. */
	readonly initialHeight: number;
	/** The bottom row on screen while scrolled up; undefined follows the end. */
	readonly anchor: ScrollAnchor | undefined;
	/** Told what was drawn (blocks and height), so scrolling moves over the same rows. */
	readonly onDraw: (source: TranscriptSource, height: number) => void;
}

/** The marker under a window scrolled up: how much is below and how to get there. */
function belowMarker(window: ViewportWindow, width: number): string {
	const count = window.below.toLocaleString("en-US");
	return yellow(oneRow(window.belowExact ? `↓ ${count} more · End` : `↓ more than ${count} · End`, width));
}

/** The rows a window fills `height` screen rows with: the last ones when full, else from the top. */
export function windowRows(window: ViewportWindow, width: number, height: number): readonly string[] {
	const rows = window.below > 0 ? [...window.rows, belowMarker(window, width)] : window.rows;
	return rows.length > height ? rows.slice(rows.length - height) : rows;
}

/**
 * The transcript: a window of pre-wrapped rows over every message of the session. It takes the
 * height the layout leaves it (measured after each frame) and draws exactly that many rows, so the
 * live part never overflows the screen and the last row of every message is on it. On a terminal
 * the rows go to the row painter and Ink lays out an empty box, so a frame costs what the editor
 * and the status line cost; elsewhere (component tests) Ink draws them.
 */
export function ChatView({ parts, showThinking, expandTools, width, initialHeight, anchor, onDraw }: ChatViewProps) {
	const ref = useRef<DOMElement>(null);
	const [height, setHeight] = useState(Math.max(1, initialHeight));
	const source = useMemo(
		() => transcriptSource(parts, { width, showThinking, expandTools }),
		[parts, width, showThinking, expandTools],
	);
	const painter = useContext(RowPainterContext);
	const window = viewportWindow(source, anchor, height);
	// Scrolling moves over the rows of the height the box really has (the state may be a frame behind).
	useLayoutEffect(() => onDraw(source, (ref.current && measureElement(ref.current).height) || height));
	// Runs before Ink writes this commit's frame: the frame waits for the rows painted below.
	useInsertionEffect(() => painter?.expectRows());
	// Ink has laid the frame out when layout effects run: paint for the height the box really has.
	useLayoutEffect(() => {
		if (!painter || !ref.current) return;
		const measured = measureElement(ref.current).height;
		const shown = measured === height ? window : viewportWindow(source, anchor, measured);
		painter.show({
			top: screenTop(ref.current) + 1,
			height: measured,
			rows: windowRows(shown, width, measured),
			columns: width,
		});
	});
	useLayoutEffect(() => (painter ? () => painter.hide() : undefined), [painter]);
	useEffect(() => {
		if (!ref.current) return;
		const measured = measureElement(ref.current).height;
		if (measured > 0 && measured !== height) setHeight(measured);
	});
	if (painter) return <Box ref={ref} flexGrow={1} flexShrink={1} width={width} />;
	const full = window.rows.length + (window.below > 0 ? 1 : 0) >= height;
	return (
		<Box
			ref={ref}
			flexGrow={1}
			flexShrink={1}
			flexDirection="column"
			justifyContent={full ? "flex-end" : "flex-start"}
			overflow="hidden"
			width={width}
		>
			<Box flexShrink={0} flexDirection="column" width={width}>
				{window.rows.length > 0 ? <Text>{window.rows.join("\n")}</Text> : null}
				{window.below > 0 ? <Text>{belowMarker(window, width)}</Text> : null}
			</Box>
		</Box>
	);
}
