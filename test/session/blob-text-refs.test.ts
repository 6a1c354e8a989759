import { describe, expect, it } from "vitest";
import { resolveBlobRefs, resolveBlobRefsSync } from "../../source/session/blob-refs.js";
import { MemoryBlobStore } from "../../source/session/blob-store.js";
import type { FileEntry } from "../../source/session/types.js";

function toolResultEntry(id: string, texts: string[]): FileEntry {
	return {
		type: "message",
		id,
		parentId: null,
		timestamp: "2026-02-16T10:21:00.000Z",
		message: {
			role: "toolResult",
			toolCallId: "call_1",
			toolName: "read",
			content: texts.map((text) => ({ type: "text", text })),
			isError: false,
			timestamp: 1,
		},
	} as FileEntry;
}

function textsOf(entry: FileEntry): string[] {
	const message = (entry as { message: { content: { text: string }[] } }).message;
	return message.content.map((block) => block.text);
}

describe("text blob references in tool results", () => {
	it("resolve to their UTF-8 text, async and sync; a missing blob is reported and left as it is", async () => {
		const blobs = new MemoryBlobStore();
		const big = `résumé ✓ ${"y".repeat(40_000)}`;
		const hash = await blobs.put(Buffer.from(big, "utf8"));
		const gone = "cd".repeat(32);
		const refs = [`blob:sha256:${hash}`, "small, inline", `blob:sha256:${gone}`];

		const entry = toolResultEntry("a", refs);
		expect(await resolveBlobRefs([entry], blobs)).toEqual([gone]);
		expect(textsOf(entry)).toEqual([big, "small, inline", `blob:sha256:${gone}`]);

		const onDemand = toolResultEntry("b", refs);
		expect(resolveBlobRefsSync(onDemand, blobs)).toEqual([gone]);
		expect(textsOf(onDemand)).toEqual([big, "small, inline", `blob:sha256:${gone}`]);
	});

	it("are only read in tool results: a user or assistant text that looks like a reference is text", async () => {
		const blobs = new MemoryBlobStore();
		const hash = await blobs.put(Buffer.from("hidden"));
		const user = {
			type: "message",
			id: "u",
			parentId: null,
			timestamp: "t",
			message: { role: "user", content: [{ type: "text", text: `blob:sha256:${hash}` }], timestamp: 1 },
		} as FileEntry;
		expect(await resolveBlobRefs([user], blobs)).toEqual([]);
		expect(textsOf(user)).toEqual([`blob:sha256:${hash}`]);
	});
});
