import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entryKind, summarizeEntry } from "../../source/session/entry-summary.js";
import { migrateSessionEntries } from "../../source/session/migrations.js";
import type { FileEntry, StoredEntry } from "../../source/session/types.js";

const FIXTURES = join(import.meta.dirname, "../fixtures");

function fixtureEntries(file: string): StoredEntry[] {
	const lines = readFileSync(join(FIXTURES, file), "utf8").split("\n").filter(Boolean);
	const entries = lines.map((line) => JSON.parse(line) as FileEntry);
	migrateSessionEntries(entries);
	return entries.filter((entry) => entry.type !== "session") as StoredEntry[];
}

function at(fields: Record<string, unknown>): StoredEntry {
	return { id: "e1", parentId: null, timestamp: "2026-12-02T00:00:00.000Z", ...fields } as StoredEntry;
}

const EDGE_CASES: StoredEntry[] = [
	at({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "  " }] } }),
	at({ type: "message", message: { role: "assistant", content: [{ type: "text" }] } }),
	at({ type: "message", message: { role: "assistant", content: [{ type: "toolCall", name: "read", arguments: {} }] } }),
	at({
		type: "message",
		message: { role: "assistant", content: [{ type: "thinking", thinking: "x" }], stopReason: "error" },
	}),
	at({ type: "message", message: { role: "assistant", content: null } }),
	at({ type: "message", message: { role: "assistant", content: [null] } }),
	at({ type: "message", message: { role: "robot", content: "hi" } }),
	at({ type: "message", message: "not an object" }),
	at({
		type: "message",
		message: { role: "toolResult", toolName: "bash", content: [{ type: "text", text: "x".repeat(300_000) }] },
	}),
	at({ type: "ttsr_injection", injectedRules: "not a list" }),
	at({ type: "ttsr_injection", injectedRules: ["a"] }),
	at({ type: "session_init", systemPrompt: "p", tools: null }),
	at({ type: "session_init", systemPrompt: "p", tools: ["read"] }),
	at({ type: "model_change" }),
	at({ type: "label", targetId: "x" }),
	at({ type: "something_new", data: 1 }),
];

describe("entryKind", () => {
	it("gives every entry the kind its summary has, over the fixtures and malformed entries", () => {
		const entries = [
			...fixtureEntries("upstream-v1/large-session.jsonl"),
			...fixtureEntries("upstream-v1/before-compaction.jsonl"),
			...EDGE_CASES,
		];
		expect(entries.length).toBeGreaterThan(EDGE_CASES.length + 10);
		const kinds = new Set<string>();
		for (const entry of entries) {
			expect(entryKind(entry), JSON.stringify(entry).slice(0, 200)).toBe(summarizeEntry(entry).kind);
			kinds.add(entryKind(entry));
		}
		// The comparison covered many kinds, not one.
		expect(kinds.size).toBeGreaterThanOrEqual(8);
	});

	it("summarises a 300 KB tool output from its head", () => {
		const summary = summarizeEntry(EDGE_CASES[8]!);
		expect(summary.text.startsWith("[result] bash: xxx")).toBe(true);
		expect(summary.text.length).toBeLessThanOrEqual(200);
	});
});
