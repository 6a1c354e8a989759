import { readFile } from "node:fs/promises";
import type { AgentTool, AgentToolResult } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "@mariozechner/pi-ai";
import { statExistingFile, throwIfAborted } from "./file-access.js";
import { type ImageMimeType, imageMimeFromBytes, imageMimeFromExtension } from "./image-type.js";
import { displayPath, resolveToolPath } from "./paths.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, splitLines, truncateHead } from "./truncate.js";

/** Largest image the read tool attaches; providers reject bigger ones and fail the whole request. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

// A NUL byte in the first block is the same heuristic git and grep use for "binary".
const BINARY_SNIFF_BYTES = 8192;

const readSchema = Type.Object({
	path: Type.String({ description: "File to read: relative to the working directory, absolute, or ~/..." }),
	offset: Type.Optional(Type.Integer({ minimum: 1, description: "1-based line number to start reading from" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of lines to read" })),
});

/** Arguments of the read tool. */
export type ReadParams = Static<typeof readSchema>;

/** What a read returned, for the UI. */
export type ReadDetails =
	| {
			readonly kind: "text";
			readonly path: string;
			readonly startLine: number;
			readonly endLine: number;
			readonly totalLines: number;
			readonly truncated: boolean;
	  }
	| { readonly kind: "image"; readonly path: string; readonly mimeType: ImageMimeType; readonly bytes: number };

const DESCRIPTION = [
	"Read a file from the filesystem.",
	`Text files: returns up to ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)}, whichever comes first;`,
	"when more remains, a note at the end gives the offset to continue from.",
	"Use offset (1-based line) and limit (lines) to read part of a large file.",
	"Images (png, jpg, gif, webp) are returned as images you can see.",
	"Binary files and directories cannot be read; use bash (ls, file, xxd) for those.",
].join(" ");

/** The `read` tool, resolving paths against `cwd`. */
export function createReadTool(cwd: string): AgentTool<typeof readSchema, ReadDetails> {
	return {
		name: "read",
		label: "Read",
		description: DESCRIPTION,
		parameters: readSchema,
		execute: async (_toolCallId, params, signal) => {
			throwIfAborted(signal);
			const offset = positiveInteger("offset", params.offset ?? 1);
			const limit = positiveInteger("limit", params.limit ?? DEFAULT_MAX_LINES);
			const absolute = resolveToolPath(cwd, params.path);
			const shown = displayPath(cwd, absolute);
			await statExistingFile(absolute, shown);
			const bytes = await readFile(absolute);
			throwIfAborted(signal);

			const claimed = imageMimeFromExtension(absolute);
			if (claimed !== undefined) return readImage(bytes, absolute, shown);
			if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
				throw new Error(`${shown} is a binary file and cannot be read as text`);
			}
			return readText(bytes, absolute, shown, offset, limit);
		},
	};
}

function positiveInteger(name: string, value: number): number {
	if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
	return value;
}

function readImage(bytes: Buffer, absolute: string, shown: string): AgentToolResult<ReadDetails> {
	const mimeType = imageMimeFromBytes(bytes);
	if (mimeType === undefined) {
		throw new Error(`${shown} has an image extension but is not a PNG, JPEG, GIF or WebP image`);
	}
	if (bytes.length > MAX_IMAGE_BYTES) {
		throw new Error(
			`${shown} is ${formatSize(bytes.length)}; images larger than ${formatSize(MAX_IMAGE_BYTES)} cannot be attached`,
		);
	}
	return {
		content: [
			{ type: "text", text: `Read image ${shown} (${mimeType}, ${formatSize(bytes.length)})` },
			{ type: "image", data: bytes.toString("base64"), mimeType },
		],
		details: { kind: "image", path: absolute, mimeType, bytes: bytes.length },
	};
}

function readText(
	bytes: Buffer,
	absolute: string,
	shown: string,
	offset: number,
	limit: number,
): AgentToolResult<ReadDetails> {
	// The model edits what it reads: show LF and no BOM, which edit maps back to the file's own form.
	const text = bytes
		.toString("utf8")
		.replace(/^\uFEFF/, "")
		.replace(/\r\n/g, "\n");
	const lines = splitLines(text);
	const total = lines.length;
	if (total === 0 && offset === 1) {
		return {
			content: [{ type: "text", text: "[File is empty]" }],
			details: { kind: "text", path: absolute, startLine: 0, endLine: 0, totalLines: 0, truncated: false },
		};
	}
	if (offset > total) throw new Error(`Offset ${offset} is beyond the end of ${shown} (${total} lines)`);

	const selected = lines.slice(offset - 1, offset - 1 + limit);
	const cut = truncateHead(selected.join("\n"), { maxLines: limit, maxBytes: DEFAULT_MAX_BYTES });
	const endLine = offset - 1 + (cut.truncated ? cut.keptLines : selected.length);
	let note = "";
	if (cut.truncated && cut.partialLine) note = ` (line ${endLine} cut at ${formatSize(DEFAULT_MAX_BYTES)})`;
	else if (cut.truncated && cut.truncatedBy === "bytes") note = ` (${formatSize(DEFAULT_MAX_BYTES)} limit)`;
	const more = endLine < total;
	let output = cut.content;
	if (more || note !== "") {
		const next = more ? ` Use offset=${endLine + 1} to continue.` : "";
		output += `\n\n[Showing lines ${offset}-${endLine} of ${total}${note}.${next}]`;
	}
	return {
		content: [{ type: "text", text: output }],
		details: {
			kind: "text",
			path: absolute,
			startLine: offset,
			endLine,
			totalLines: total,
			truncated: more || note !== "",
		},
	};
}
