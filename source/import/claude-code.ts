import { basename } from "node:path";
import { assistantBlocksOf, type Block, blocksOf, toolResultContent, userBlocksOf } from "./claude-code-blocks.js";
import { ClaudeResponse, type LooseItem } from "./claude-code-response.js";
import { ClaudeTree } from "./claude-code-tree.js";
import {
	collectPlan,
	type ImportPlan,
	type ItemSink,
	type ParseOptions,
	type PlanHead,
	SkipError,
} from "./import-plan.js";
import { toolResultOf, userOf } from "./message-build.js";
import { isoTime, isRecord, type LineSource, str, textLines } from "./source-lines.js";

/*
 * Claude Code (`~/.claude/projects/<encoded cwd>/<session>.jsonl`): one record per line, a tree by
 * `uuid`/`parentUuid`. The session is mapped so that its context is what Claude Code's own resume
 * sends (the rule its loader follows, read in public re-implementations of it: walk `parentUuid`
 * from the leaf, stop at a compact boundary, recover the parallel tool calls and results the walk
 * misses, merge each response's lines into one message):
 * - one API response, split over lines sharing `message.id` with its tool results written in
 *   between (see claude-code-response.ts), becomes one assistant message followed by its results,
 *   on one chain; its usage is the response's last line's;
 * - a `compact_boundary` and the `isCompactSummary` line after it become a compaction: the context
 *   starts at the summary, as Claude Code's does (its walk stops at the boundary, whose parentUuid
 *   is null; a newer boundary's `preservedSegment` keeps the messages from its head), while the
 *   history before it stays in the tree under `logicalParentUuid`;
 * - records with no conversational meaning (progress, hooks, snapshots, system lines) are kept as
 *   `custom` entries where they happened, so they never become side branches of their own; a
 *   `/command`'s output, which Claude Code sends, is hidden context.
 * Branches are left only where the source has them (a rewind or an edit points at an earlier line).
 */

const CONVERSATION = new Set(["user", "assistant"]);

/** The time of records in a source that gives none. */
const EPOCH = new Date(0).toISOString();

function userItems(tree: ClaudeTree, record: Record<string, unknown>, uuid: string, time: string, side: boolean): void {
	const message = isRecord(record.message) ? record.message : {};
	if (record.isCompactSummary === true && tree.summary(uuid, record)) return;
	tree.settleCompaction();
	const blocks = blocksOf(message.content);
	const results = blocks.filter((b) => b.type === "tool_result");
	const rest = userBlocksOf(blocks.filter((b) => b.type !== "tool_result"));
	const parentUuid = str(record.parentUuid);
	const items: LooseItem[] = [];
	const keyFor = () => (items.length === 0 ? uuid : `${uuid}#${items.length}`);
	for (const result of results) {
		const callId = str(result.tool_use_id) ?? "";
		const content = toolResultContent(result.content);
		const name = tree.toolNames.get(callId) ?? "unknown";
		const body = {
			kind: "message" as const,
			message: toolResultOf(callId, name, content, result.is_error === true, time),
		};
		items.push({ key: keyFor(), timestamp: time, body });
	}
	if (rest.length > 0 || results.length === 0)
		items.push({
			key: keyFor(),
			timestamp: time,
			body:
				record.isMeta === true || record.isCompactSummary === true
					? {
							kind: "hidden",
							content: rest,
							details: { isMeta: record.isMeta, isCompactSummary: record.isCompactSummary },
						}
					: { kind: "message", message: userOf(rest, time) },
		});
	const callIds = results.map((result) => str(result.tool_use_id) ?? "");
	if (results.length > 0 && tree.open?.answers(callIds, parentUuid)) {
		tree.open.addResults(uuid, parentUuid, time, items);
		return;
	}
	tree.closeResponse(parentUuid);
	if (results.length > 0) tree.lateResults(parentUuid, items, side);
	else tree.add({ ...items[0]!, parent: tree.resolve(parentUuid) }, side);
}

function assistantLine(
	tree: ClaudeTree,
	record: Record<string, unknown>,
	uuid: string,
	time: string,
	side: boolean,
): void {
	tree.settleCompaction();
	const message = isRecord(record.message) ? record.message : {};
	const blocks: Block[] = blocksOf(message.content);
	for (const block of blocks)
		if (block.type === "tool_use") tree.toolNames.set(str(block.id) ?? "", str(block.name) ?? "");
	const parentUuid = str(record.parentUuid);
	const line = {
		uuid,
		parentUuid,
		timestamp: time,
		blocks: assistantBlocksOf(blocks),
		message,
		apiError: record.isApiErrorMessage === true,
	};
	const messageId = str(message.id);
	if (messageId !== undefined && tree.open?.messageId === messageId) {
		tree.open.addLine(line);
		return;
	}
	tree.closeResponse(parentUuid);
	tree.openResponse(new ClaudeResponse(messageId ?? uuid, line, tree.resolve(parentUuid), side));
}

/** Reads a Claude Code transcript (main session or `subagents/agent-*.jsonl`) into a plan. */
export function parseClaudeCode(text: string, sourcePath: string, options: ParseOptions): ImportPlan {
	return collectPlan((sink) => readClaudeCode(textLines(text), sourcePath, options, sink));
}

/** Reads a Claude Code transcript, sending its items to `sink` as they are final; returns the rest of its plan. */
export function readClaudeCode(lines: LineSource, sourcePath: string, options: ParseOptions, sink: ItemSink): PlanHead {
	const tree = new ClaudeTree(sink);
	let sessionId: string | undefined;
	let agentId: string | undefined;
	let cwd: string | undefined;
	let title: string | undefined;
	let started: string | undefined;
	/** The last time a record gave (records before the first one are dated by it). */
	let lastTime: string | undefined;
	const badLines = lines((record, line) => {
		// A file-history snapshot has no time of its own but its snapshot's.
		const snapshot = isRecord(record.snapshot) ? record.snapshot : undefined;
		const own = isoTime(record.timestamp) ?? isoTime(snapshot?.timestamp);
		if (own !== undefined) {
			lastTime = own;
			tree.dated(own);
		}
		started ??= isoTime(record.timestamp);
		agentId ??= str(record.agentId);
		if (sessionId === undefined) {
			sessionId = str(record.sessionId);
			if (sessionId !== undefined) sink.sourceId?.(agentId ? `${sessionId}/agent-${agentId}` : sessionId);
		}
		cwd ??= str(record.cwd);
		const uuid = str(record.uuid);
		const fresh = uuid !== undefined && !tree.has(uuid);
		const side = record.isSidechain === true && agentId === undefined;
		if (record.type === "summary" && typeof record.summary === "string") title = record.summary;
		if (fresh && record.type === "system" && record.subtype === "compact_boundary")
			tree.boundary(uuid, own ?? lastTime ?? EPOCH, record);
		else if (!fresh || !CONVERSATION.has(str(record.type) ?? ""))
			tree.side(fresh ? uuid : `line:${line}`, own ?? lastTime, record, side);
		else if (record.type === "user") userItems(tree, record, uuid, own ?? lastTime ?? EPOCH, side);
		else assistantLine(tree, record, uuid, own ?? lastTime ?? EPOCH, side);
		tree.flush();
	});
	tree.end(lastTime ?? EPOCH);
	if (!sessionId) throw new SkipError("no Claude Code session id in the file");
	const file = basename(sourcePath, ".jsonl");
	const sourceId = agentId ? `${sessionId}/agent-${agentId}` : sessionId;
	return {
		tool: "claude-code",
		sourcePath,
		sourceId,
		cwd: cwd ?? options.fallbackCwd,
		cwdOrigin: cwd ? "source" : options.cwdGiven ? "--cwd" : "current directory",
		title: title ?? (agentId ? `Claude Code subagent ${agentId} (${file})` : undefined),
		startedAt: started ?? lastTime ?? EPOCH,
		// A subagent's transcript names its parent session (`sessionId` is the parent's).
		...(agentId ? { parentSourceId: sessionId } : {}),
		...(tree.mainLeaf ? { leafKey: tree.mainLeaf } : {}),
		badLines,
	};
}
