import { existsSync } from "node:fs";
import type { PendingBlob } from "../session/blob-refs.js";
import { readClaudeCode } from "./claude-code.js";
import { readCodex } from "./codex.js";
import { detectTool } from "./detect.js";
import { type ItemSink, type ParseOptions, type PlanHead, SkipError, type SourceTool } from "./import-plan.js";
import { type RecordText, readImportRecord, recordTextWith } from "./import-record.js";
import { KeyTable } from "./key-table.js";
import { LatestTime, newSessionOf, recordFor } from "./new-session.js";
import { NO_REPLY } from "./plan-status.js";
import { SessionBody, type SpilledBody } from "./session-body.js";
import { fileLines, firstLineOf } from "./source-file.js";
import { type LineSource, textLines } from "./source-lines.js";

/*
 * A first import of a Claude Code or Codex source, written as it is read: each line of the source
 * is parsed, mapped and its entry's line written before the next is parsed, so nothing of the
 * session is held as objects (a plan of a big session kept the garbage collector busy longer than
 * the parsing took). Anything but a first import (a record says the source was imported before:
 * unchanged, grown, changed) goes through the plan, which compares the items with the record.
 * A source past MAX_STREAM_BYTES is read from its file a chunk at a time and its session built to
 * disk (`buildStreamedFile`): any size is imported in the memory of a few MB of lines.
 */

/** Sources past this size are read from their file and built to disk instead of being held in memory. */
export const MAX_STREAM_BYTES = 16 << 20;

/** The tools whose sources are written as they are read. */
export type StreamTool = "claude-code" | "codex";

/** A new session built from a source as it was read. */
export interface StreamedSession<Body extends Uint8Array | SpilledBody = Uint8Array | SpilledBody> {
	readonly head: PlanHead;
	readonly file: string;
	readonly mtimeMs: number;
	/** Entries written, the provenance entry included. */
	readonly entries: number;
	/** Every line, newline-terminated: in memory, or (built to disk) to be written out and closed. */
	readonly body: Body;
	readonly record: RecordText;
	readonly blobs: PendingBlob[];
}

/** The source's tool when its new session can be written as it is read, else undefined. */
export function streamTool(text: string, from: SourceTool | "auto"): StreamTool | undefined {
	// An empty file is said to be one by the plan path.
	if (text.trim() === "") return undefined;
	const tool = from === "auto" ? detectTool(text) : from;
	return tool === "claude-code" || tool === "codex" ? tool : undefined;
}

/** A source file's tool when its new session can be written as it is read, from its first line. */
export function streamToolOfFile(path: string, from: SourceTool | "auto"): StreamTool | undefined {
	// The first line says the format (a Codex meta line holds the instructions: some KB).
	const first = firstLineOf(path, 16 << 20);
	if (first.trim() === "") return undefined;
	const tool = from === "auto" ? detectTool(first) : from;
	return tool === "claude-code" || tool === "codex" ? tool : undefined;
}

/** An earlier import of this source whose session is still there: the plan compares with it. */
function importedBefore(tool: SourceTool, sourceId: string): boolean {
	const record = readImportRecord(tool, sourceId);
	return record !== undefined && existsSync(record.sessionFile);
}

/** Said (thrown through the reader) when a record of the source turns up: the plan takes over. */
class ImportedBefore extends Error {}

/**
 * Builds the new session of a source never imported before, or returns undefined when it was (the
 * plan path then says unchanged, appends or imports again). Throws SkipError like the plan path:
 * no session id, no entries, no reply. `parentSessionOf`: the session a parent source went to.
 */
export function buildStreamed(
	text: string,
	sourcePath: string,
	tool: StreamTool,
	options: ParseOptions,
	parentSessionOf?: (sourceId: string) => string | undefined,
): StreamedSession<Uint8Array> | undefined {
	const keys = new KeyTable();
	const body = new SessionBody(text.length + (text.length >> 2), false, keys);
	// A body that does not spill finishes in memory.
	return buildFrom(textLines(text), body, keys, sourcePath, tool, options, parentSessionOf) as
		| StreamedSession<Uint8Array>
		| undefined;
}

/**
 * `buildStreamed` of a source read from its file a chunk at a time, its session built to disk: its
 * `body` must be written out (or given up) and closed.
 */
export function buildStreamedFile(
	sourcePath: string,
	tool: StreamTool,
	options: ParseOptions,
	parentSessionOf?: (sourceId: string) => string | undefined,
): StreamedSession<SpilledBody> | undefined {
	const keys = new KeyTable();
	const body = new SessionBody(0, true, keys);
	// A body that spills finishes on disk.
	return buildFrom(fileLines(sourcePath), body, keys, sourcePath, tool, options, parentSessionOf) as
		| StreamedSession<SpilledBody>
		| undefined;
}

function buildFrom(
	lines: LineSource,
	body: SessionBody,
	keys: KeyTable,
	sourcePath: string,
	tool: StreamTool,
	options: ParseOptions,
	parentSessionOf?: (sourceId: string) => string | undefined,
): StreamedSession | undefined {
	const latest = new LatestTime();
	let checked: string | undefined;
	const sink: ItemSink = {
		item: (item) => {
			body.add(item);
			latest.see(item.timestamp);
		},
		sourceId: (id) => {
			checked = id;
			if (importedBefore(tool, id)) throw new ImportedBefore();
		},
		leaf: (key) => body.leaf(key),
		keys,
	};
	/** Whether the spill file (if any) went out with the session: else it is closed here. */
	let handedOver = false;
	try {
		let head: PlanHead;
		try {
			head =
				tool === "claude-code"
					? readClaudeCode(lines, sourcePath, options, sink)
					: readCodex(lines, sourcePath, options, sink);
		} catch (error) {
			if (error instanceof ImportedBefore) return undefined;
			throw error;
		}
		if (head.sourceId !== checked && importedBefore(tool, head.sourceId)) return undefined;
		if (body.count === 0) throw new SkipError("no entries in it");
		if (!body.replied) throw new SkipError(NO_REPLY);
		latest.see(head.startedAt);
		// A subagent's session names its parent's (a Claude Code subagent transcript).
		const parent = head.parentSourceId === undefined ? undefined : parentSessionOf?.(head.parentSourceId);
		const session = newSessionOf(head, latest.ms(), undefined, parent);
		const built = body.finish(session.header, { timestamp: head.startedAt, data: session.provenance }, head.leafKey);
		handedOver = !(built.body instanceof Uint8Array);
		return {
			head,
			file: session.file,
			mtimeMs: session.mtimeMs,
			entries: body.count + 1,
			body: built.body,
			record: recordTextWith(recordFor(head, session.file, {}, built.itemsDigest), built.entriesJson),
			blobs: built.blobs,
		};
	} finally {
		if (!handedOver) body.close();
	}
}
