import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slimSessionFile } from "../../source/doctor/slim.js";
import { resolveBlobRefs, resolveBlobRefsSync } from "../../source/session/blob-refs.js";
import { MemoryBlobStore } from "../../source/session/blob-store.js";
import { TRUNCATION_NOTICE } from "../../source/session/persist-transform.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { FileEntry } from "../../source/session/types.js";
import { writeBigSession } from "../helpers/big-session.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

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

describe("a slimmed session rewritten by xcsh", () => {
	const temp = useTempAgentDir();

	it("keeps its tool results in the blob store: a rename writes the reference back, never the text cut at the limit", async () => {
		const file = join(temp.root, "slim.jsonl");
		// 600,000 characters: more than xcsh writes inline (MAX_PERSIST_CHARS), as another tool may.
		writeBigSession(file, 2, 600_000, { cwd: temp.root });
		const before = await SessionManager.open(file, { lazyAboveBytes: Number.POSITIVE_INFINITY });
		const reference = before.getEntries();
		await before.close();
		expect((await slimSessionFile(file)).kind).toBe("slimmed");
		const session = await SessionManager.open(file, { lazyAboveBytes: Number.POSITIVE_INFINITY });
		await session.setSessionName("renamed after slimming");
		await session.close();
		// Booleans: a failure must not print a file of megabytes.
		const text = readFileSync(file, "utf8");
		expect(text.includes('"text":"blob:sha256:')).toBe(true);
		expect(text.includes(TRUNCATION_NOTICE)).toBe(false);
		const again = await SessionManager.open(file, { lazyAboveBytes: Number.POSITIVE_INFINITY });
		expect(again.getEntries()).toEqual(reference);
		await again.close();
	});
});
