import { readFileSync } from "node:fs";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import Database from "better-sqlite3";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage } from "../helpers/messages.js";

/** A real session file for `cwd` holding these messages; returns its path. */
export async function writeSession(cwd: string, messages: readonly AgentMessage[]): Promise<string> {
	const manager = await SessionManager.create(cwd);
	for (const message of messages) manager.appendMessage(message);
	const path = manager.getSessionFile();
	await manager.close();
	if (!path) throw new Error("session was not written");
	return path;
}

/** Appends messages to an existing session file through SessionManager, as a resumed session would. */
export async function appendToSession(path: string, messages: readonly AgentMessage[]): Promise<void> {
	const manager = await SessionManager.open(path);
	for (const message of messages) manager.appendMessage(message);
	await manager.close();
}

/** An assistant message that calls a tool. */
export function toolCallMessage(name: string, args: Record<string, unknown>): AssistantMessage {
	const message = assistantMessage("");
	message.content = [{ type: "toolCall", id: `call_${name}`, name, arguments: args }];
	return message;
}

/** Byte length of the header line including its newline. */
export function headerBytes(path: string): number {
	const text = readFileSync(path, "utf8");
	return Buffer.byteLength(text.slice(0, text.indexOf("\n") + 1));
}

/** The stored `sessions` row of a file, read straight from the database. */
export function storedRow(dbPath: string, path: string): { indexed_bytes: number; size: number } | undefined {
	const db = new Database(dbPath, { readonly: true });
	try {
		return db
			.prepare<[string], { indexed_bytes: number; size: number }>(
				"SELECT indexed_bytes, size FROM sessions WHERE path = ?",
			)
			.get(path);
	} finally {
		db.close();
	}
}

/** How many FTS rows a session file has. */
export function ftsRowCount(dbPath: string, path: string): number {
	const db = new Database(dbPath, { readonly: true });
	try {
		const row = db
			.prepare<[string], { n: number }>(
				"SELECT count(*) AS n FROM entries e JOIN sessions s ON s.sid = e.sid WHERE s.path = ?",
			)
			.get(path);
		return row?.n ?? 0;
	} finally {
		db.close();
	}
}
