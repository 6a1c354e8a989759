import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "@mariozechner/pi-ai";
import { atomicWriteFile } from "./atomic-write.js";
import { throwIfAborted } from "./file-access.js";
import { displayPath, resolveToolPath } from "./paths.js";
import { splitLines } from "./truncate.js";

const writeSchema = Type.Object({
	path: Type.String({ description: "File to write: relative to the working directory, absolute, or ~/..." }),
	content: Type.String({ description: "The complete new content of the file" }),
});

/** Arguments of the write tool. */
export type WriteParams = Static<typeof writeSchema>;

/** What a write did, for the UI. */
export interface WriteDetails {
	readonly path: string;
	readonly bytes: number;
	readonly lines: number;
	/** False when an existing file was replaced. */
	readonly created: boolean;
}

const DESCRIPTION = [
	"Write a file, replacing it entirely if it exists and creating missing parent directories.",
	"The write is atomic: the file is never left half-written.",
	"Prefer edit for changing part of an existing file; read a file before overwriting it.",
].join(" ");

/** The `write` tool, resolving paths against `cwd`. */
export function createWriteTool(cwd: string): AgentTool<typeof writeSchema, WriteDetails> {
	return {
		name: "write",
		label: "Write",
		description: DESCRIPTION,
		parameters: writeSchema,
		// A write racing an edit of the same file in one turn would silently drop one of the two changes.
		executionMode: "sequential",
		execute: async (_toolCallId, params, signal) => {
			throwIfAborted(signal);
			const absolute = resolveToolPath(cwd, params.path);
			const shown = displayPath(cwd, absolute);
			const existing = await stat(absolute).catch(() => undefined);
			if (existing?.isDirectory()) throw new Error(`${shown} is a directory`);
			await mkdir(dirname(absolute), { recursive: true });
			await atomicWriteFile(absolute, params.content);

			const bytes = Buffer.byteLength(params.content, "utf8");
			const lines = splitLines(params.content).length;
			const verb = existing === undefined ? "Created" : "Overwrote";
			return {
				content: [{ type: "text", text: `${verb} ${shown}: wrote ${bytes} bytes (${plural(lines, "line")})` }],
				details: { path: absolute, bytes, lines, created: existing === undefined },
			};
		},
	};
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
