import { describe, expect, it } from "vitest";
import type { PendingBlob } from "../../source/session/blob-refs.js";
import { MAX_PERSIST_CHARS, persistsAsIs, prepareForPersistence } from "../../source/session/persist-transform.js";
import type { FileEntry } from "../../source/session/types.js";

function entry(message: unknown): FileEntry {
	return { type: "message", id: "a", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message } as FileEntry;
}

describe("persistsAsIs (the bulk import's shortcut past prepareForPersistence)", () => {
	const cases: [string, unknown][] = [
		["a string past the limit", { role: "user", content: [{ type: "text", text: "x".repeat(MAX_PERSIST_CHARS + 1) }] }],
		[
			"a big inline image",
			{ role: "user", content: [{ type: "image", mimeType: "image/png", data: "A".repeat(2048) }] },
		],
		["a transient key", { role: "assistant", content: [{ type: "toolCall", partialJson: "{", arguments: {} }] }],
		["a transient key deep in data", { role: "user", content: [], extra: { jsonlEvents: [] } }],
	];

	it.each(cases)("is false where the transform changes the entry: %s", (_, message) => {
		const e = entry(message);
		expect(prepareForPersistence(e, [] as PendingBlob[])).not.toBe(e);
		expect(persistsAsIs(JSON.stringify(e))).toBe(false);
	});

	it("is true for an ordinary message, which the transform leaves as it is", () => {
		const text = 'she said "image" and left\n'.repeat(100);
		const e = entry({ role: "user", content: [{ type: "text", text }] });
		expect(prepareForPersistence(e, [])).toBe(e);
		expect(persistsAsIs(JSON.stringify(e))).toBe(true);
	});
});
