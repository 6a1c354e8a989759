import { Box, Text } from "ink";
import { type ReactNode, useEffect, useRef } from "react";
import type { SelectorScope, SelectorSnapshot } from "../../controllers/selector-controller.js";
import { clip } from "../../source/render/clip.js";
import { bold, cyan, dim, green } from "../../source/render/paint.js";
import { formatRelativeTime } from "../../source/render/relative-time.js";
import { safeLine } from "../../source/render/safe-text.js";
import { styledLine } from "../../source/render/styled-line.js";
import type { SessionInfo } from "../../source/session/types.js";
import { FilterLine, ListRows } from "../list/list-frame.js";
import { PaintedRows } from "../list/painted-rows.js";
import { useInputReady } from "../use-input-ready.js";
import { type SessionSelectorCallbacks, useSessionSelectorInput } from "./use-session-selector-input.js";
import { type SessionSelectorMode, sessionLabel, useSessionSelectorState } from "./use-session-selector-state.js";

/** Props of `SessionSelector`. */
export interface SessionSelectorProps extends SessionSelectorCallbacks {
	readonly sessions: readonly SessionInfo[];
	readonly loading: boolean;
	readonly scope: SelectorScope;
	readonly currentSessionFile?: string;
	readonly notice?: string;
	readonly error?: string;
	/** How far a long index refresh has got ("1,234 of 10,000"), while `loading`. */
	readonly progress?: string | undefined;
	/** Lines the picker may use; it renders exactly this many. */
	readonly height: number;
	readonly width: number;
	readonly isActive: boolean;
	/** Called once, after the first frame that shows the rows (or why there are none). */
	readonly onShown?: (() => void) | undefined;
	/**
	 * The owner holds the keys typed until this screen's effects have run and then hands them over
	 * (the early picker's key buffer): the rows can show in the first frame, no key is lost.
	 */
	readonly keysHeld?: boolean | undefined;
}

/** Title, filter, ▲ marker, ▼ marker, status and footer: the lines that are not rows. */
const CHROME_LINES = 6;
const PREFIX_WIDTH = 4;
const TIME_WIDTH = 10;
const COUNT_WIDTH = 8;
/** After the name of a session forked from another (its header names a `parentSession`). */
export const FORK_MARK = " (fork)";
/** The name gets at least this much before the metadata is dropped. */
const MIN_LABEL_WIDTH = 24;

/** `…tail` of a string in `width` characters: the end of a path says the most. */
function clipStart(text: string, width: number): string {
	return text.length <= width ? text : `…${text.slice(text.length - Math.max(0, width - 1))}`;
}

/** Session content as one line a terminal cannot act on. */
function oneLine(text: string): string {
	return safeLine(text).replace(/\s+/g, " ").trim();
}

/** One session's row as a styled line of `width` columns: name (or the rename field), project, time, count. */
function sessionRowLine(
	session: SessionInfo,
	selected: boolean,
	current: boolean,
	showCwd: boolean,
	width: number,
	mode: SessionSelectorMode,
	now: Date,
): string {
	const prefix = `${selected ? "›" : " "} ${current ? "●" : " "} `;
	if (selected && mode.kind === "rename" && mode.path === session.path) {
		const text = `${clipStart(safeLine(mode.text), Math.max(1, width - PREFIX_WIDTH - 10))}▌`;
		return styledLine([{ text: prefix, style: cyan }, { text: "Rename: " }, { text, style: cyan }], width);
	}
	const time = formatRelativeTime(session.modified, now).padStart(TIME_WIDTH);
	const count = `${session.messageCount} msg`.padStart(COUNT_WIDTH);
	// On a narrow terminal the name matters most: the count goes first, then the time, then the project.
	const roomFor = (extra: number) => width - PREFIX_WIDTH - extra - 2 >= MIN_LABEL_WIDTH;
	const safeCwd = showCwd ? safeLine(session.cwd) : "";
	const cwdWidth = showCwd ? Math.min(safeCwd.length, Math.max(10, Math.floor(width / 4))) : 0;
	// The time column can be full ("2026-02-10", "10 min ago"): a space after the project keeps them apart.
	const cwd = showCwd && roomFor(cwdWidth + 3) ? `  ${clipStart(safeCwd, cwdWidth)} ` : "";
	const meta = roomFor(cwd.length + time.length + count.length)
		? time + count
		: roomFor(cwd.length + time.length)
			? time
			: "";
	const labelWidth = Math.max(4, width - PREFIX_WIDTH - meta.length - cwd.length - 2);
	// A fork starts as a copy, name included: the mark is what tells the two apart, so it is never clipped.
	const fork = session.parentSession !== undefined ? FORK_MARK : "";
	const name = clip(oneLine(sessionLabel(session)), Math.max(1, labelWidth - fork.length));
	const label = `${name}${fork}`.padEnd(labelWidth);
	return styledLine(
		[
			{ text: prefix, style: current ? green : selected ? cyan : undefined },
			{ text: label, style: selected ? cyanBold : undefined },
			{ text: cwd, style: dim },
			{ text: meta, style: dim },
		],
		width,
	);
}

const cyanBold = (text: string): string => cyan(bold(text));

function footerFor(mode: SessionSelectorMode): string {
	switch (mode.kind) {
		case "browse":
			return "↑↓ PgUp/PgDn move · Enter resume · Tab scope · Ctrl+D delete · Ctrl+R rename · Esc close";
		case "rename":
			return "Enter save · Esc cancel";
		case "confirmDelete":
			return "y delete · n keep";
	}
}

function StatusLine({
	mode,
	error,
	notice,
}: Pick<SessionSelectorProps, "error" | "notice"> & { mode: SessionSelectorMode }) {
	if (mode.kind === "confirmDelete")
		return <Text color="yellow" wrap="truncate">{`Delete "${oneLine(mode.label)}"? (y/n)`}</Text>;
	if (error)
		return (
			<Text color="red" wrap="truncate">
				{safeLine(error)}
			</Text>
		);
	if (notice)
		return (
			<Text color="yellow" wrap="truncate">
				{safeLine(notice)}
			</Text>
		);
	return <Text> </Text>;
}

/** The picker's props that mirror the controller's snapshot. */
export function snapshotProps(
	snapshot: SelectorSnapshot,
): Pick<SessionSelectorProps, "sessions" | "loading" | "scope" | "notice" | "error" | "progress"> {
	return {
		sessions: snapshot.sessions,
		loading: snapshot.loading,
		scope: snapshot.scope,
		...(snapshot.notice ? { notice: snapshot.notice } : {}),
		...(snapshot.error ? { error: snapshot.error } : {}),
		...(snapshot.progress ? { progress: snapshot.progress } : {}),
	};
}

/** The `/resume` picker: a filterable, windowed list of sessions; all I/O is the owner's, through callbacks. */
export function SessionSelector(props: SessionSelectorProps) {
	const { sessions, loading, progress, scope, currentSessionFile, notice, error, height, width, isActive } = props;
	const rows = Math.max(1, height - CHROME_LINES);
	const api = useSessionSelectorState(sessions, rows);
	useSessionSelectorInput({ ...props, api, isActive });
	const { state, list } = api;
	const now = new Date();
	const title =
		scope === "project"
			? "Resume session — this project (Tab: all projects)"
			: "Resume session — all projects (Tab: this project)";

	const ready = useInputReady() || props.keysHeld === true;
	const shown = useRef(false);
	const { onShown } = props;
	useEffect(() => {
		if (!ready || shown.current) return;
		shown.current = true;
		onShown?.();
	}, [ready, onShown]);
	let body: ReactNode;
	if (!ready) body = null;
	else if (loading && sessions.length === 0)
		body = <Text dimColor>{progress ? `Indexing sessions… ${progress}` : "Loading sessions…"}</Text>;
	else if (sessions.length === 0) body = <Text dimColor>No sessions yet</Text>;
	else if (list.visibleItems.length === 0)
		body = <Text dimColor wrap="truncate">{`No sessions match "${state.filter}"`}</Text>;
	else
		body = (
			<PaintedRows
				rows={list.visibleItems.map((session, i) =>
					sessionRowLine(
						session,
						list.windowStart + i === list.selected,
						session.path === currentSessionFile,
						scope === "all",
						width,
						state.mode,
						now,
					),
				)}
				width={width}
			/>
		);

	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text bold wrap="truncate">
				{title}
				{loading && sessions.length > 0 ? (
					<Text dimColor>{progress ? ` (indexing ${progress}…)` : " (loading…)"}</Text>
				) : null}
			</Text>
			<FilterLine filter={state.filter} />
			<ListRows list={list} height={rows}>
				{body}
			</ListRows>
			<StatusLine mode={state.mode} error={error} notice={notice} />
			<Text dimColor wrap="truncate">
				{clip(footerFor(state.mode), width)}
			</Text>
		</Box>
	);
}
