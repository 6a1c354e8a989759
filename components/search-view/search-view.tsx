import { basename } from "node:path";
import { Box, Text } from "ink";
import { memo, type ReactNode, useEffect, useRef } from "react";
import type { SearchScope } from "../../controllers/search-controller.js";
import type { IndexedRole, SearchHit } from "../../source/index/session-index.js";
import { clip } from "../../source/render/clip.js";
import { formatRelativeTime } from "../../source/render/relative-time.js";
import { safeLine } from "../../source/render/safe-text.js";
import { graphemes } from "../editor/editor-buffer.js";
import { ListRows } from "../list/list-frame.js";
import { type SearchViewCallbacks, useSearchViewInput } from "./use-search-view-input.js";
import { hitKey, useSearchViewState } from "./use-search-view-state.js";

/** Props of `SearchView`. */
export interface SearchViewProps extends SearchViewCallbacks {
	/** The query line's text when the screen opens. */
	readonly initialQuery: string;
	readonly hits: readonly SearchHit[];
	/** The query `hits` answer. */
	readonly hitsQuery: string;
	readonly scope: SearchScope;
	/** The query has words (and no bad filter): an empty `hits` means no matches. */
	readonly searched: boolean;
	/** The index is catching up; the hits may still change. */
	readonly refreshing: boolean;
	readonly filterError?: string;
	readonly error?: string;
	readonly currentSessionFile?: string;
	/** Lines the screen may use; it renders exactly this many. */
	readonly height: number;
	readonly width: number;
	readonly isActive: boolean;
	/** Called with the query line's text whenever it changes. */
	readonly onQueryChange: (query: string) => void;
}

/** Title, query, status, ▲ marker, ▼ marker and footer: the lines that are not hits. */
const CHROME_LINES = 6;
/** Each hit takes two lines: what and where, then the snippet. */
const HIT_LINES = 2;
const SESSION_ID_CHARS = 8;
const ROLE_LABELS: Readonly<Record<IndexedRole, string>> = { user: "user", assistant: "assistant", toolResult: "tool" };

/** A piece of a snippet; `match` pieces were in `[` `]` (the index's marks for the matched terms). */
export interface SnippetPart {
	readonly text: string;
	readonly match: boolean;
}

/** Splits a snippet at the index's `[term]` marks. */
export function snippetParts(snippet: string): SnippetPart[] {
	const parts: SnippetPart[] = [];
	let last = 0;
	for (const found of snippet.matchAll(/\[([^[\]]+)\]/g)) {
		if (found.index > last) parts.push({ text: snippet.slice(last, found.index), match: false });
		parts.push({ text: found[1]!, match: true });
		last = found.index + found[0].length;
	}
	if (last < snippet.length) parts.push({ text: snippet.slice(last), match: false });
	return parts;
}

interface HitRowProps {
	readonly hit: SearchHit;
	readonly selected: boolean;
	readonly current: boolean;
	readonly now: Date;
}

const HitRow = memo(function HitRow({ hit, selected, current, now }: HitRowProps) {
	const title = clip(
		safeLine(hit.title ?? hit.sessionId.slice(0, SESSION_ID_CHARS))
			.replace(/\s+/g, " ")
			.trim(),
		40,
	);
	return (
		<Box flexDirection="column">
			<Text wrap="truncate-end">
				<Text color={current ? "green" : selected ? "cyan" : undefined}>
					{selected ? "›" : " "} {current ? "●" : " "}{" "}
				</Text>
				<Text color={selected ? "cyan" : undefined} bold={selected}>
					{title}
				</Text>
				<Text dimColor>
					{" · "}
					{safeLine(basename(hit.cwd) || hit.cwd)} · {formatRelativeTime(new Date(hit.timestamp), now)} ·{" "}
				</Text>
				<Text color={hit.role === "user" ? "green" : undefined}>{ROLE_LABELS[hit.role]}</Text>
				{hit.compacted ? <Text dimColor> · compacted</Text> : null}
			</Text>
			<Text wrap="truncate-end">
				{"    "}
				{snippetParts(safeLine(hit.snippet)).map((part, i) =>
					part.match ? (
						// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
						<Text key={i} color="yellow" bold>
							{part.text}
						</Text>
					) : (
						part.text
					),
				)}
			</Text>
		</Box>
	);
});

/** The query line with a block cursor at the cursor's grapheme. */
function QueryLine({ text, col }: { readonly text: string; readonly col: number }) {
	const chars = graphemes(text);
	return (
		<Text wrap="truncate-start">
			<Text color="cyan">› </Text>
			{chars.slice(0, col).join("")}
			<Text inverse>{chars[col] ?? " "}</Text>
			{chars.slice(col + 1).join("")}
		</Text>
	);
}

function statusLine(props: SearchViewProps): ReactNode {
	const message = props.error ?? props.filterError;
	if (message !== undefined)
		return (
			<Text color="red" wrap="truncate-end">
				{safeLine(message)}
			</Text>
		);
	if (!props.searched) return <Text> </Text>;
	const count = props.hits.length;
	return <Text dimColor>{count === 1 ? "1 match" : `${count} matches`}</Text>;
}

/** The `/search` screen: a query line and a windowed list of matching entries; all I/O is the owner's. */
export function SearchView(props: SearchViewProps) {
	const { initialQuery, hits, hitsQuery, scope, searched, refreshing, height, width, isActive } = props;
	const { error, filterError, currentSessionFile, onQueryChange } = props;
	const rows = Math.max(1, Math.floor((height - CHROME_LINES) / HIT_LINES));
	const api = useSearchViewState(initialQuery, hits, hitsQuery, rows);
	useSearchViewInput({ ...props, api, isActive });
	const { state, query, list } = api;

	// The controller already answers the prefilled query: report edits only.
	const reported = useRef(initialQuery);
	useEffect(() => {
		if (query === reported.current) return;
		reported.current = query;
		onQueryChange(query);
	}, [query, onQueryChange]);

	const now = new Date();
	const title =
		scope === "project" ? "Search — this project (Tab: all projects)" : "Search — all projects (Tab: this project)";
	let body: ReactNode = null;
	if (error !== undefined || filterError !== undefined) body = null;
	else if (!searched) body = <Text dimColor>Type to search every session</Text>;
	else if (hits.length === 0) body = <Text dimColor>No matches</Text>;
	else
		body = list.visibleItems.map((hit, i) => (
			<HitRow
				key={hitKey(hit)}
				hit={hit}
				selected={list.windowStart + i === list.selected}
				current={hit.sessionPath === currentSessionFile}
				now={now}
			/>
		));

	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate-end">
				{title}
				{refreshing ? <Text dimColor> (updating the index…)</Text> : null}
			</Text>
			<QueryLine text={query} col={state.buffer.col} />
			{statusLine(props)}
			<ListRows list={list} height={rows * HIT_LINES}>
				{body}
			</ListRows>
			<Text dimColor wrap="truncate-end">
				↑↓ PgUp/PgDn move · Enter open · Tab scope · role:user since:7d until:2026-11-01 filter · Esc back
			</Text>
		</Box>
	);
}
