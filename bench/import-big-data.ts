// Big Claude Code and Codex sources made of a real fixture's lines, repeated until the file has the
// size asked for: each copy gets its own uuids, tool call ids and message ids (the session id stays),
// so the copies chain into one long session the way a long-running one does. Written a copy at a
// time: a 1 GB file is never in memory. Used by bench/import-big.ts and test/import/bounded-import.test.ts.

import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const FOREIGN = join(import.meta.dirname, "../test/fixtures/foreign");

/** The fixtures whose line shapes the big files repeat. */
export const BIG_SHAPES = {
	"claude-code": "claude-code-07-2.1.39-parallel-calls-compaction.jsonl.gz",
	codex: "codex-02-desktop-0.104-compacted-images-redacted.jsonl",
} as const;

/** A tool whose big sources can be made. */
export type BigTool = keyof typeof BIG_SHAPES;

function fixtureLines(name: string): string[] {
	const bytes = readFileSync(join(FOREIGN, name));
	const text = (name.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
	return text.split("\n").filter((line) => line.trim() !== "");
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
/** Tool call and message ids of both agents. */
const IDS = /\b(toolu_|msg_|req_|call_|fc_|rs_|srvtoolu_)([A-Za-z0-9]+)/g;

/** The lines of copy `k`: every id but the session's made its own. */
function copyOf(lines: readonly string[], k: number, sessionId: string): string[] {
	const tag = k.toString(16).padStart(8, "0");
	return lines.map((line) =>
		line
			.replace(UUID, (uuid) => (uuid === sessionId ? uuid : `${tag}${uuid.slice(8)}`))
			.replace(IDS, (_, prefix: string, rest: string) => `${prefix}${tag}${rest}`),
	);
}

/**
 * Writes a source of `tool` of at least `bytes` bytes to `path`; returns its size. Claude Code: the
 * first line of each copy after the first hangs under the last uuid of the copy before it. Codex:
 * the session meta is written once, at the top.
 */
export function writeBigSource(tool: BigTool, path: string, bytes: number): number {
	const lines = fixtureLines(BIG_SHAPES[tool]);
	const first = JSON.parse(lines[0]!) as Record<string, unknown>;
	const meta = tool === "codex" ? lines[0]! : undefined;
	const body = meta ? lines.slice(1) : lines;
	const sessionId =
		tool === "codex"
			? String((first.payload as Record<string, unknown>).id)
			: String((JSON.parse(lines.find((line) => line.includes('"sessionId"'))!) as { sessionId: string }).sessionId);
	const fd = openSync(path, "w");
	let written = 0;
	const write = (text: string) => {
		const chunk = Buffer.from(text);
		for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
		written += chunk.length;
	};
	try {
		if (meta) write(`${meta}\n`);
		let lastUuid: string | undefined;
		for (let k = 0; written < bytes; k++) {
			const copy = copyOf(body, k, sessionId);
			if (tool === "claude-code" && lastUuid !== undefined) {
				const at = copy.findIndex((line) => line.includes('"parentUuid":null'));
				if (at >= 0) copy[at] = copy[at]!.replace('"parentUuid":null', `"parentUuid":"${lastUuid}"`);
			}
			if (tool === "claude-code") {
				const withUuid = copy.findLast((line) => line.includes('"uuid":"'));
				lastUuid = withUuid && /"uuid":"([^"]+)"/.exec(withUuid)?.[1];
			}
			write(`${copy.join("\n")}\n`);
		}
	} finally {
		closeSync(fd);
	}
	return written;
}
