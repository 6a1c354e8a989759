import type { AgentMessage } from "@mariozechner/pi-agent-core";

/** Files the agent read and changed, recorded in a compaction's `details`. */
export interface FileOperations {
	readFiles: string[];
	modifiedFiles: string[];
}

/** Collects the `path` arguments of read / write / edit tool calls, in first-seen order. */
export function collectFileOperations(messages: readonly AgentMessage[], previous?: FileOperations): FileOperations {
	const read = new Set(previous?.readFiles ?? []);
	const modified = new Set(previous?.modifiedFiles ?? []);
	for (const message of messages) {
		if (message.role !== "assistant") continue;
		for (const block of message.content) {
			if (block.type !== "toolCall") continue;
			const path = (block.arguments as { path?: unknown }).path;
			if (typeof path !== "string") continue;
			if (block.name === "read") read.add(path);
			else if (block.name === "write" || block.name === "edit") modified.add(path);
		}
	}
	return { readFiles: [...read].filter((p) => !modified.has(p)), modifiedFiles: [...modified] };
}

/** True when a value looks like FileOperations (details of an earlier compaction). */
export function isFileOperations(value: unknown): value is FileOperations {
	const ops = value as Partial<FileOperations> | null;
	return typeof ops === "object" && ops !== null && Array.isArray(ops.readFiles) && Array.isArray(ops.modifiedFiles);
}

/** Paths kept per list: a compaction of a huge path records the files touched last, not every one. */
const MAX_PATHS = 1000;

/** `collectFileOperations` one message at a time, in bounded memory (the most recently seen paths are kept). */
export class FileOperationsTally {
	readonly #read = new Set<string>();
	readonly #modified = new Set<string>();

	constructor(previous?: FileOperations) {
		for (const path of previous?.readFiles ?? []) this.#read.add(path);
		for (const path of previous?.modifiedFiles ?? []) this.#modified.add(path);
	}

	/** Counts the read / write / edit calls of one message. */
	add(message: AgentMessage): void {
		if (message.role !== "assistant") return;
		for (const block of message.content) {
			if (block.type !== "toolCall") continue;
			const path = (block.arguments as { path?: unknown }).path;
			if (typeof path !== "string") continue;
			if (block.name === "read") keep(this.#read, path);
			else if (block.name === "write" || block.name === "edit") keep(this.#modified, path);
		}
	}

	/** The lists as `collectFileOperations` gives them: a file changed is not also listed as read. */
	result(): FileOperations {
		return {
			readFiles: [...this.#read].filter((p) => !this.#modified.has(p)),
			modifiedFiles: [...this.#modified],
		};
	}
}

/** Adds `path` once (first-seen order), dropping the oldest past the bound. */
function keep(set: Set<string>, path: string): void {
	if (set.has(path)) return;
	set.add(path);
	if (set.size > MAX_PATHS) set.delete(set.values().next().value!);
}
