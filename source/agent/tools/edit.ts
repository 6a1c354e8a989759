import { readFile } from "node:fs/promises";
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "@mariozechner/pi-ai";
import { atomicWriteFile } from "./atomic-write.js";
import { diffSingleEdit } from "./diff.js";
import { statExistingFile, throwIfAborted } from "./file-access.js";
import { displayPath, resolveToolPath } from "./paths.js";

const editSchema = Type.Object({
	path: Type.String({ description: "File to edit: relative to the working directory, absolute, or ~/..." }),
	oldText: Type.String({ description: "Exact text to replace; must occur exactly once in the file" }),
	newText: Type.String({ description: "Text to put in its place" }),
});

/** Arguments of the edit tool. */
export type EditParams = Static<typeof editSchema>;

/** What an edit changed, for the UI. */
export interface EditDetails {
	readonly path: string;
	/** Unified-diff-style hunk of the change, in LF form. */
	readonly diff: string;
	/** 1-based line in the edited file where the change starts. */
	readonly firstChangedLine: number;
}

const DESCRIPTION = [
	"Edit a file by replacing one exact occurrence of oldText with newText.",
	"oldText must match the file exactly, including whitespace and indentation, and must be unique:",
	"include enough surrounding lines to identify the spot. Read the file first.",
	"Line endings (LF or CRLF) and a UTF-8 BOM are preserved; write oldText and newText with plain \\n.",
].join(" ");

/** The `edit` tool, resolving paths against `cwd`. */
export function createEditTool(cwd: string): AgentTool<typeof editSchema, EditDetails> {
	return {
		name: "edit",
		label: "Edit",
		description: DESCRIPTION,
		parameters: editSchema,
		// Two edits of one file in a single turn would each read the old text and the later write would win.
		executionMode: "sequential",
		execute: async (_toolCallId, params, signal) => {
			throwIfAborted(signal);
			const absolute = resolveToolPath(cwd, params.path);
			const shown = displayPath(cwd, absolute);
			await statExistingFile(absolute, shown);
			const oldText = toLf(params.oldText);
			const newText = toLf(params.newText);
			if (oldText === "") throw new Error("oldText must not be empty");
			if (oldText === newText) throw new Error(`oldText and newText are identical; nothing to change in ${shown}`);

			const raw = await readFile(absolute, "utf8");
			const bom = raw.startsWith("\uFEFF") ? "\uFEFF" : "";
			const body = raw.slice(bom.length);
			const normalized = toLf(body);
			const count = countOccurrences(normalized, oldText);
			if (count === 0) {
				throw new Error(
					`Could not find the exact text in ${shown}. The old text must match exactly, including whitespace.`,
				);
			}
			if (count > 1) {
				throw new Error(
					`Found ${count} occurrences of the text in ${shown}. Add more surrounding context to make it unique.`,
				);
			}

			const at = normalized.indexOf(oldText);
			// Splice into the raw text so lines outside the match keep their exact endings, even in mixed files.
			const rawStart = rawIndex(body, at);
			const rawEnd = rawIndex(body, at + oldText.length);
			const inserted = usesCrlf(body) ? newText.replace(/\n/g, "\r\n") : newText;
			throwIfAborted(signal);
			await atomicWriteFile(absolute, bom + body.slice(0, rawStart) + inserted + body.slice(rawEnd));

			const after = normalized.slice(0, at) + newText + normalized.slice(at + oldText.length);
			const change = diffSingleEdit(normalized, after);
			const summary = `Edited ${shown}: replaced ${lines(change.removedLines)} with ${lines(change.addedLines)} at line ${change.firstChangedLine}`;
			return {
				content: [{ type: "text", text: summary }],
				details: { path: absolute, diff: change.diff, firstChangedLine: change.firstChangedLine },
			};
		},
	};
}

function toLf(text: string): string {
	return text.replace(/\r\n/g, "\n");
}

function usesCrlf(text: string): boolean {
	const crlf = text.match(/\r\n/g)?.length ?? 0;
	const lf = text.match(/\n/g)?.length ?? 0;
	return crlf > lf - crlf;
}

// Overlapping matches count too: "aa" in "aaa" is just as ambiguous as two separate copies.
function countOccurrences(text: string, search: string): number {
	let count = 0;
	for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + 1)) count++;
	return count;
}

/** Maps an index in the LF-normalised text back to the raw text, where each `\r\n` is one char longer. */
function rawIndex(raw: string, normalizedIndex: number): number {
	let seen = 0;
	for (let i = 0; i < raw.length; i++) {
		if (seen === normalizedIndex) return i;
		if (!(raw[i] === "\r" && raw[i + 1] === "\n")) seen++;
	}
	return raw.length;
}

function lines(count: number): string {
	return `${count} line${count === 1 ? "" : "s"}`;
}
