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
