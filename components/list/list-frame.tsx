import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { safeLine } from "../../source/render/safe-text.js";
import type { ListView } from "./list-state.js";
import { moreMarker } from "./list-window.js";

/** The `Filter:` line of a type-to-filter list, with a hint while it is empty. */
export function FilterLine({ filter }: { readonly filter: string }) {
	return (
		<Text wrap="truncate">
			<Text dimColor>Filter: </Text>
			{filter.length > 0 ? <Text>{safeLine(filter)}</Text> : <Text dimColor>type to search</Text>}
		</Text>
	);
}

/** Props of `ListRows`. */
export interface ListRowsProps {
	readonly list: Pick<ListView<unknown>, "hiddenAbove" | "hiddenBelow">;
	/** Lines the rows take: the box keeps this height, so the lines under it never move. */
	readonly height: number;
	readonly children: ReactNode;
}

/** The rows of a windowed list between its ▲ and ▼ markers (each a line, blank when nothing is hidden). */
export function ListRows({ list, height, children }: ListRowsProps) {
	return (
		<>
			<Text dimColor>{moreMarker("above", list.hiddenAbove)}</Text>
			<Box flexDirection="column" height={height}>
				{children}
			</Box>
			<Text dimColor>{moreMarker("below", list.hiddenBelow)}</Text>
		</>
	);
}
