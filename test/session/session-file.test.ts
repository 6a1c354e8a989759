import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BLOB_REF_PREFIX, BlobStore, MemoryBlobStore } from "../../source/session/blob-store.js";
import { MAX_PERSIST_CHARS, TRUNCATION_NOTICE } from "../../source/session/persist-transform.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { getDefaultSessionDir } from "../../source/session/session-paths.js";
import { assistantMessage, imageBlock, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

function fileLines(path: string): Record<string, unknown>[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("session files", () => {
	const temp = useTempAgentDir();
	const opened: SessionManager[] = [];
	const track = (session: SessionManager): SessionManager => {
		opened.push(session);
		return session;
	};
	afterEach(async () => {
		for (const session of opened.splice(0)) await session.close().catch(() => undefined);
	});

	async function persistedSession(): Promise<SessionManager> {
		const session = track(await SessionManager.create("/work/project"));
		session.appendMessage(userMessage("hello"));
		session.appendMessage(assistantMessage("hi"));
		return session;
	}

	it("every entry type round-trips through the file, unknown types included", async () => {
		const session = await persistedSession();
		const first = session.getEntries()[0]!.id;
		session.appendThinkingLevelChange("high");
		session.appendModelChange("openai/gpt-4o", "smol");
		session.appendCompaction("sum", "short", first, 42000, { readFiles: ["src/a.ts"] }, { hookState: true }, false);
		session.appendCustomEntry("my-extension", { state: 1 });
		session.appendCustomMessageEntry("my-extension", "Injected context", true, { debug: false });
		session.appendLabelChange(first, "checkpoint");
		session.appendTtsrInjection(["ruleA", "ruleB"]);
		session.appendSessionInit({
			systemPrompt: "...",
			task: "t",
			tools: ["read", "edit"],
			outputSchema: { type: "object" },
		});
		session.appendModeChange("plan", { planFile: "/tmp/plan.md" });
		session.branchWithSummary(first, "abandoned", { note: "optional" }, true);
		await session.flush();
		const path = session.getSessionFile()!;
		expect(path).toBe(join(getDefaultSessionDir("/work/project"), path.split("/").pop()!));
		expect(path).toContain(join(temp.agentDir, "sessions", "--work-project--"));

		const future = { type: "future_entry", id: "0badf00d", parentId: session.getLeafId(), timestamp: "t", x: [1] };
		writeFileSync(path, `${readFileSync(path, "utf8")}${JSON.stringify(future)}\n`);
		const reopened = track(await SessionManager.open(path));
		expect(reopened.getEntries()).toEqual([...session.getEntries(), future]);
		expect(reopened.getHeader()).toEqual(session.getHeader());
		expect(reopened.getLabel(first)).toBe("checkpoint");

		reopened.appendMessage(userMessage("after the unknown one"));
		await reopened.flush();
		expect(fileLines(path).find((l) => l.type === "future_entry")).toEqual(future);
		for (const line of fileLines(path).slice(1)) {
			expect(Object.keys(line).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
		}
	});

	it("the header is v3 with a time-sortable id and the file name carries the timestamp", async () => {
		const session = await persistedSession();
		await session.flush();
		const header = fileLines(session.getSessionFile()!)[0]!;
		expect(header).toMatchObject({ type: "session", version: 3, cwd: "/work/project" });
		expect(header.id).toMatch(/^[0-9a-f]{16}$/);
		const name = session.getSessionFile()!.split("/").pop()!;
		expect(name).toBe(`${(header.timestamp as string).replace(/[:.]/g, "-")}_${header.id}.jsonl`);
	});

	it("large images become blob references on disk and are restored on load", async () => {
		const session = await persistedSession();
		const big = imageBlock(4000, 1);
		const small = imageBlock(100, 2);
		session.appendMessage({ role: "user", content: [{ type: "text", text: "look" }, big, small], timestamp: 1 });
		session.appendMessage(toolResultMessage("screenshot", [imageBlock(3000, 3)]));
		session.appendCustomMessageEntry("ext", [imageBlock(2000, 4)], true);
		await session.flush();

		const raw = readFileSync(session.getSessionFile()!, "utf8");
		expect(raw).not.toContain(big.data);
		expect(raw).toContain(small.data);
		const refs = [...raw.matchAll(/blob:sha256:([0-9a-f]{64})/g)].map((m) => m[1]!);
		expect(refs).toHaveLength(3);
		const expectedHash = createHash("sha256").update(Buffer.from(big.data, "base64")).digest("hex");
		expect(refs).toContain(expectedHash);
		const blobDir = join(temp.agentDir, "blobs");
		expect(readdirSync(blobDir).sort()).toEqual([...refs].sort());
		expect(readFileSync(join(blobDir, expectedHash)).equals(Buffer.from(big.data, "base64"))).toBe(true);

		const reopened = track(await SessionManager.open(session.getSessionFile()!));
		expect(reopened.getEntries()).toEqual(session.getEntries());
		expect(reopened.getLoadReport().unresolvedBlobs).toEqual([]);
	});

	it("a missing blob is reported and its reference kept", async () => {
		const session = await persistedSession();
		session.appendMessage({ role: "user", content: [imageBlock(4000, 9)], timestamp: 1 });
		await session.flush();
		const [hash] = readdirSync(join(temp.agentDir, "blobs"));
		const { rmSync } = await import("node:fs");
		rmSync(join(temp.agentDir, "blobs", hash!));
		const reopened = track(await SessionManager.open(session.getSessionFile()!));
		expect(reopened.getLoadReport().unresolvedBlobs).toEqual([hash]);
		expect(JSON.stringify(reopened.getEntries())).toContain(`${BLOB_REF_PREFIX}${hash}`);
	});

	it("strings over 500,000 chars are cut with the notice on disk only; transient fields are dropped", async () => {
		const session = await persistedSession();
		const huge = "x".repeat(MAX_PERSIST_CHARS + 10_000);
		const message = toolResultMessage(huge);
		const withTransient = {
			...message,
			partialJson: "{",
			jsonlEvents: ["e"],
			lineCount: 99,
			details: { content: "line\n".repeat(120_000), lineCount: 120_001 },
		};
		session.appendMessage(withTransient as typeof message);
		await session.flush();

		const last = fileLines(session.getSessionFile()!).pop() as { message: Record<string, unknown> };
		const text = (last.message.content as { text: string }[])[0]!.text;
		expect(text.length).toBeLessThanOrEqual(MAX_PERSIST_CHARS);
		expect(text.endsWith(TRUNCATION_NOTICE)).toBe(true);
		expect(last.message).not.toHaveProperty("partialJson");
		expect(last.message).not.toHaveProperty("jsonlEvents");
		const details = last.message.details as { content: string; lineCount: number };
		expect(details.content.endsWith(TRUNCATION_NOTICE)).toBe(true);
		expect(details.lineCount).toBe(details.content.split("\n").length);
		expect(details.lineCount).toBeLessThan(120_001);
		const inMemory = session.getEntries().pop() as unknown as { message: { content: { text: string }[] } };
		expect(inMemory.message.content[0]!.text).toBe(huge);
	});

	it("fork copies every entry into a new file whose parentSession is the old id", async () => {
		const session = await persistedSession();
		await session.flush();
		const before = session.getSessionFile()!;
		const oldId = session.getSessionId();
		const result = await session.fork();
		expect(result).toEqual({ previousSessionFile: before, sessionFile: session.getSessionFile() });
		expect(session.getSessionId()).not.toBe(oldId);
		const [header, ...entries] = fileLines(result!.sessionFile);
		expect(header).toMatchObject({ id: session.getSessionId(), parentSession: oldId, cwd: "/work/project" });
		expect(entries.map((e) => e.id)).toEqual(session.getEntries().map((e) => e.id));
		expect(fileLines(before)).toHaveLength(3);
		expect(await SessionManager.inMemory().fork()).toBeUndefined();
	});

	it("newSession starts an empty session in the same directory, with the parent recorded", async () => {
		const session = await persistedSession();
		await session.flush();
		const before = session.getSessionFile()!;
		await session.newSession({ parentSession: before });
		expect(session.getEntries()).toEqual([]);
		expect(session.getLeafId()).toBeNull();
		expect(session.getSessionFile()).not.toBe(before);
		expect(session.getHeader().parentSession).toBe(before);
		expect(session.getSessionDir()).toBe(getDefaultSessionDir("/work/project"));
		expect(fileLines(before)).toHaveLength(3);
	});

	it("forkFrom copies another project's session without touching the source", async () => {
		const source = await persistedSession();
		await source.flush();
		const sourceBytes = readFileSync(source.getSessionFile()!);
		const fork = track(await SessionManager.forkFrom(source.getSessionFile()!, "/other/project"));
		expect(fork.getCwd()).toBe("/other/project");
		expect(fork.getSessionFile()!).toContain("--other-project--");
		expect(fork.getHeader().parentSession).toBe(source.getSessionFile());
		expect(fork.getEntries()).toEqual(source.getEntries());
		expect(fileLines(fork.getSessionFile()!)).toHaveLength(3);
		expect(readFileSync(source.getSessionFile()!).equals(sourceBytes)).toBe(true);
		await expect(SessionManager.forkFrom(join(temp.root, "nope.jsonl"), "/x")).rejects.toThrow("File not found");
	});

	it("setSessionName is kept in memory until the first write, then lands in the header", async () => {
		const session = track(await SessionManager.create("/work/project"));
		session.appendMessage(userMessage("hello"));
		await session.setSessionName("early name");
		session.appendMessage(assistantMessage("hi"));
		await session.flush();
		expect(fileLines(session.getSessionFile()!)[0]).toMatchObject({ title: "early name" });
		await session.setSessionName("renamed");
		expect(fileLines(session.getSessionFile()!)[0]).toMatchObject({ title: "renamed" });
		expect(track(await SessionManager.open(session.getSessionFile()!)).getSessionName()).toBe("renamed");
	});

	it("the in-memory session writes nothing anywhere", async () => {
		const session = SessionManager.inMemory("/work/project");
		session.appendMessage(userMessage("a"));
		session.appendMessage(assistantMessage("b"));
		await session.flush();
		expect(session.getSessionFile()).toBeUndefined();
		expect(session.isPersisted()).toBe(false);
		expect(readdirSync(temp.root)).toEqual([]);
	});

	it("blob stores are content-addressed and idempotent", async () => {
		for (const store of [new BlobStore(join(temp.root, "blobs")), new MemoryBlobStore()]) {
			const bytes = Buffer.from("hello blob");
			const hash = await store.put(bytes);
			expect(await store.put(bytes)).toBe(hash);
			expect(hash).toBe(createHash("sha256").update(bytes).digest("hex"));
			expect(await store.has(hash)).toBe(true);
			expect((await store.get(hash))!.equals(bytes)).toBe(true);
			expect(await store.get("0".repeat(64))).toBeUndefined();
			expect(await store.has("../../etc/passwd")).toBe(false);
		}
	});
});
