import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { type ImportResult, importFile } from "../../source/import/import-run.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { SessionContext, StoredEntry } from "../../source/session/types.js";

/** The foreign fixtures shipped with the repository. */
export const FOREIGN = join(import.meta.dirname, "../fixtures/foreign");

/** A fixture's path. */
export function fixture(name: string): string {
	return join(FOREIGN, name);
}

/**
 * A fixture's bytes: a `.gz` one (a real file over the size kept in the repository) is
 * decompressed, which gives the source's bytes exactly.
 */
export function fixtureBytes(name: string): Buffer {
	const bytes = readFileSync(fixture(name));
	return name.endsWith(".gz") ? gunzipSync(bytes) : bytes;
}

/** Writes a fixture's bytes to `path` (folders made), as the agent that wrote it named it; returns the path. */
export function placeFixture(name: string, path: string): string {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, fixtureBytes(name));
	return path;
}

/** An imported session as reopened from disk. */
export interface Opened {
	result: Exclude<ImportResult, { status: "skipped" }>;
	context: SessionContext;
	entries: StoredEntry[];
	title: string | undefined;
}

/** Imports a file (into the temp agent dir) and reopens what it wrote. */
export async function importAndOpen(path: string, cwd = "/projects/fallback", cwdGiven = false): Promise<Opened> {
	const result = await importFile(path, { from: "auto", dryRun: false, cwd, cwdGiven });
	if (result.status === "skipped") throw new Error(`skipped: ${result.reason}`);
	const manager = await SessionManager.open(result.sessionFile, { breadcrumb: false, mustExist: true });
	try {
		return {
			result,
			context: manager.buildSessionContext(),
			entries: manager.getEntries(),
			title: manager.getSessionName(),
		};
	} finally {
		await manager.close();
	}
}

/** The text of a message's text blocks (string content as is). */
export function textOf(message: AgentMessage): string {
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b): b is { type: "text"; text: string } => b?.type === "text")
		.map((b) => b.text)
		.join("\n");
}

/** Every tool call of the context's assistant messages, by id. */
export function toolCalls(context: SessionContext): Map<string, { name: string; arguments: Record<string, unknown> }> {
	const calls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
	for (const message of context.messages) {
		if (message.role !== "assistant") continue;
		for (const block of message.content) if (block.type === "toolCall") calls.set(block.id, block);
	}
	return calls;
}

/**
 * Tool results whose call is not earlier in the context (or has another name), and calls no result
 * answers: `[]` when every call and result pair up by id.
 */
export function unpairedResults(context: SessionContext): string[] {
	const open = new Map<string, string>();
	const bad: string[] = [];
	for (const message of context.messages) {
		if (message.role === "assistant")
			for (const block of message.content) if (block.type === "toolCall") open.set(block.id, block.name);
		if (message.role !== "toolResult") continue;
		if (open.get(message.toolCallId) === message.toolName) open.delete(message.toolCallId);
		else bad.push(`result ${message.toolCallId}`);
	}
	for (const id of open.keys()) bad.push(`call ${id}`);
	return bad;
}

/** Role and text of each context message, to compare two imports. */
export function transcript(context: SessionContext): string[] {
	return context.messages.map((m) => `${m.role}:${textOf(m)}`);
}
