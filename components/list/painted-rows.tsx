import { Box, type DOMElement, Text } from "ink";
import { useContext, useInsertionEffect, useLayoutEffect, useRef } from "react";
import { RowPainterContext } from "../chat/row-painter-context.js";

/** Props of `PaintedRows`. */
export interface PaintedRowsProps {
	/** Styled lines, each at most `width` columns (see `styledLine`). */
	readonly rows: readonly string[];
	readonly width: number;
}

/** The row of the screen (0-based) a laid-out element starts on. */
export function screenTop(element: DOMElement): number {
	let top = 0;
	for (let node: DOMElement | undefined = element; node; node = node.parentNode)
		top += node.yogaNode?.getComputedTop() ?? 0;
	return top;
}

/**
 * A list's rows, already styled and cut to the width. On a terminal they go to the row painter and
 * Ink lays out an empty box of their height: Ink measuring, cutting and re-tokenizing a screenful
 * of styled text was most of the cost of a list's frame (and of its first frame far more, with its
 * code not yet compiled). Elsewhere (component tests) Ink draws them as text.
 */
export function PaintedRows({ rows, width }: PaintedRowsProps) {
	const painter = useContext(RowPainterContext);
	const ref = useRef<DOMElement>(null);
	// Runs before Ink writes this commit's frame: the frame waits for the rows painted below.
	useInsertionEffect(() => painter?.expectRows());
	// Ink has laid the frame out when layout effects run: the box's place on screen is known.
	useLayoutEffect(() => {
		if (!painter || !ref.current) return;
		painter.show({ top: screenTop(ref.current) + 1, height: rows.length, rows, columns: width });
	});
	useLayoutEffect(() => (painter ? () => painter.hide() : undefined), [painter]);
	if (painter) return <Box ref={ref} height={rows.length} width={width} flexShrink={0} />;
	return rows.length === 0 ? null : <Text>{rows.join("\n")}</Text>;
}
