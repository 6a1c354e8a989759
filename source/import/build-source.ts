// How a source is built into a new session away from the writing: on a worker thread
// (import-worker.ts), or on the main thread while it waits for the workers (import-run.ts).
import { statSync } from "node:fs";
import { parseSource } from "./detect.js";
import { SkipError, skipReason } from "./import-plan.js";
import type { BuildReply, BuildRequest } from "./import-pool.js";
import { recordText } from "./import-record.js";
import { buildNewSession, newSession } from "./new-session.js";
import { isOpencodeDatabase } from "./opencode-storage.js";
import { hasReply, NO_REPLY, planStatus } from "./plan-status.js";
import { readSourceText } from "./source-lines.js";
import { buildStreamed, MAX_STREAM_BYTES, type StreamedSession, streamTool } from "./stream-build.js";

/** Sources above this size are left to the main thread, which writes them as it builds them. */
const MAX_BUILD_BYTES = MAX_STREAM_BYTES;

function builtReply(id: number, built: StreamedSession<Uint8Array>): { reply: BuildReply; transfer: ArrayBuffer[] } {
	const { head, body } = built;
	const blobs = built.blobs.map((blob) => ({ hash: blob.hash, bytes: new Uint8Array(blob.bytes) }));
	return {
		reply: {
			id,
			kind: "built",
			tool: head.tool,
			sourceId: head.sourceId,
			cwd: head.cwd,
			cwdFrom: head.cwdOrigin,
			file: built.file,
			mtimeMs: built.mtimeMs,
			entries: built.entries,
			badLines: [...head.badLines],
			body,
			record: built.record,
			blobs,
		},
		transfer: [body.buffer as ArrayBuffer, ...blobs.map((blob) => blob.bytes.buffer as ArrayBuffer)],
	};
}

/** Reads and builds one source: a new session (built), or what else to do with it; never throws. */
export function buildSource(request: BuildRequest): { reply: BuildReply; transfer: ArrayBuffer[] } {
	const { id, path, options } = request;
	const main = { reply: { id, kind: "main" } as BuildReply, transfer: [] };
	try {
		// The database message, a huge source: the main thread's path says and does it.
		if (isOpencodeDatabase(path) || statSync(path).size > MAX_BUILD_BYTES) return main;
		const text = readSourceText(path);
		const parseOptions = { fallbackCwd: options.cwd, cwdGiven: options.cwdGiven };
		const tool = streamTool(text, options.from);
		// A first import of a Claude Code or Codex source is written as it is read.
		const built = tool ? buildStreamed(text, path, tool, parseOptions) : undefined;
		// Linking a parent (a Claude Code subagent) needs the batch: done by the main thread.
		if (built) return built.head.parentSourceId === undefined ? builtReply(id, built) : main;
		const plan = parseSource(text, path, options.from, parseOptions);
		if (plan.items.length === 0) throw new SkipError("no entries in it");
		const status = planStatus(plan);
		const summary = { tool: plan.tool, sourceId: plan.sourceId, cwd: plan.cwd, cwdFrom: plan.cwdOrigin };
		if (status.kind === "unchanged")
			return {
				reply: {
					id,
					kind: "unchanged",
					sessionFile: status.record.sessionFile,
					badLines: [...plan.badLines],
					...summary,
				},
				transfer: [],
			};
		// Appending, importing anew with a note, linking a parent: rare, and done by the main thread.
		if (status.kind !== "new" || status.previous || plan.parentSourceId !== undefined) return main;
		if (!hasReply(plan)) throw new SkipError(NO_REPLY);
		const session = newSession(plan);
		const lines: string[] = [];
		const { record, blobs } = buildNewSession(plan, session, (line) => lines.push(line));
		lines.push("");
		// Its own buffers (not Node's shared pool), so they are handed over rather than copied.
		const body = new TextEncoder().encode(lines.join("\n"));
		const blobBytes = blobs.map((blob) => ({ hash: blob.hash, bytes: new Uint8Array(blob.bytes) }));
		return {
			reply: {
				id,
				kind: "built",
				...summary,
				file: session.file,
				mtimeMs: session.mtimeMs,
				entries: plan.items.length + 1,
				badLines: [...plan.badLines],
				body,
				record: recordText(record),
				blobs: blobBytes,
			},
			transfer: [body.buffer as ArrayBuffer, ...blobBytes.map((blob) => blob.bytes.buffer as ArrayBuffer)],
		};
	} catch (error) {
		return { reply: { id, kind: "skipped", reason: skipReason(error) }, transfer: [] };
	}
}
