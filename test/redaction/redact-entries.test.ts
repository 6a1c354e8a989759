import type { AssistantMessage, ImageContent } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { redactEntries } from "../../source/redaction/redact.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { StoredEntry } from "../../source/session/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { lookalikes, type PlantedSecret, planted, withPlantedEnv } from "./corpus.js";

// Image bytes that happen to spell out a planted key: image data is never scanned, so it must survive.
const awsKey = planted.find((p) => p.kind === "aws-access-key-id")!.secret;
const IMAGE: ImageContent = { type: "image", data: `iVBORw0KGgo+${awsKey}+AAAA`, mimeType: "image/png" };

type Place = (session: SessionManager, text: string) => string;

function withContent(message: AssistantMessage, content: AssistantMessage["content"]): AssistantMessage {
	return { ...message, content };
}

/** Every place a string can hide in a session, each returning the id of the entry that holds it. */
const PLACES: Record<string, Place> = {
	"user text": (s, t) => s.appendMessage(userMessage(t)),
	"assistant text": (s, t) => s.appendMessage(assistantMessage(t)),
	thinking: (s, t) =>
		s.appendMessage(
			withContent(assistantMessage(""), [{ type: "thinking", thinking: t, thinkingSignature: "c2lnbmF0dXJl" }]),
		),
	"tool-call arguments": (s, t) =>
		s.appendMessage(
			withContent(assistantMessage(""), [
				{
					type: "toolCall",
					id: "call_1",
					name: "bash",
					arguments: { command: t, options: { env: [{ name: "X", value: t }], notes: [[t]] } },
				},
			]),
		),
	"tool result": (s, t) => s.appendMessage(toolResultMessage(t)),
	"text next to an image (tool result)": (s, t) => s.appendMessage(toolResultMessage(t, [IMAGE])),
	"text next to an image (user)": (s, t) =>
		s.appendMessage({ role: "user", content: [IMAGE, { type: "text", text: t }], timestamp: 1 }),
	"bash execution": (s, t) =>
		s.appendMessage({
			role: "bashExecution",
			command: t,
			output: t,
			exitCode: 0,
			cancelled: false,
			truncated: false,
			timestamp: 1,
		}),
	"custom message (string)": (s, t) => s.appendCustomMessageEntry("note", t, true),
	"custom message (blocks)": (s, t) => s.appendCustomMessageEntry("note", [{ type: "text", text: t }, IMAGE], true),
	"custom entry data": (s, t) => s.appendCustomEntry("ext-state", { nested: { log: [t] } }),
	compaction: (s, t) => s.appendCompaction(t, t, s.getLeafId() ?? "root", 1000, { files: [t] }),
	"branch summary": (s, t) => s.branchWithSummary(s.getLeafId(), t, { note: t }),
	label: (s, t) => s.appendLabelChange(s.getLeafId()!, t),
	"session init": (s, t) => s.appendSessionInit({ systemPrompt: t, task: t, tools: ["bash"] }),
};

interface Planting {
	readonly place: string;
	readonly planted: PlantedSecret;
	readonly entryId: string;
}

function plantEverywhere(texts: readonly PlantedSecret[]): { session: SessionManager; plantings: Planting[] } {
	const session = SessionManager.inMemory("/p");
	session.appendMessage(userMessage("hello"));
	const plantings: Planting[] = [];
	for (const [place, put] of Object.entries(PLACES)) {
		for (const p of texts) plantings.push({ place, planted: p, entryId: put(session, p.text) });
	}
	return { session, plantings };
}

describe("redactEntries", () => {
	let env: { restore: () => void };
	beforeEach(() => {
		env = withPlantedEnv();
	});
	afterEach(() => env.restore());

	it("leaves no planted secret anywhere in a session, and names the right kind per entry", () => {
		const { session, plantings } = plantEverywhere(planted);
		const { entries, summary } = redactEntries(session.getEntries());
		// The aws key is also the image bytes, which must stay: look for secrets outside the image data.
		const json = JSON.stringify(entries).replaceAll(IMAGE.data, "");
		for (const { planted: p, place } of plantings) {
			expect(json.includes(p.secret), `${p.kind} in ${place}`).toBe(false);
		}
		const kindsByEntry = new Map(summary.byEntry.map((e) => [e.entryId, e.kinds]));
		for (const { planted: p, place, entryId } of plantings) {
			expect(kindsByEntry.get(entryId), `${p.kind} in ${place}`).toContain(p.kind);
		}
		expect(summary.total).toBe(summary.byEntry.reduce((n, e) => n + e.previews.length, 0));
		expect(Object.values(summary.byKind).reduce((a, b) => a + b, 0)).toBe(summary.total);
		for (const preview of summary.byEntry.flatMap((e) => e.previews)) {
			expect(preview.length).toBeLessThanOrEqual(5);
			for (const p of planted) expect(preview.includes(p.secret)).toBe(false);
		}
	});

	it("copies image data and provider signatures byte for byte", () => {
		const { session } = plantEverywhere(planted.slice(0, 2));
		const { entries } = redactEntries(session.getEntries());
		const json = JSON.stringify(entries);
		expect(json).toContain(JSON.stringify(IMAGE.data));
		expect(json).toContain('"thinkingSignature":"c2lnbmF0dXJl"');
	});

	it("leaves look-alikes byte-identical wherever they are", () => {
		const { session } = plantEverywhere(lookalikes.map((l) => ({ kind: "none", secret: "", text: l.text })));
		const input = session.getEntries();
		const { entries, summary } = redactEntries(input, { env: false });
		expect(JSON.stringify(entries)).toBe(JSON.stringify(input));
		expect(summary).toEqual({ total: 0, byKind: {}, byEntry: [] });
	});

	it("never mutates its inputs, shares no objects with them and is deterministic", () => {
		const { session } = plantEverywhere(planted.slice(0, 8));
		const header = session.getHeader();
		const input = session.getEntries();
		const before = structuredClone({ header, input });
		const first = redactEntries(input, { header });
		expect({ header, input }).toEqual(before);
		expect(first.entries[0]).not.toBe(input[0]);
		const message = (e: StoredEntry): unknown => (e as { message?: unknown }).message;
		expect(message(first.entries[1]!)).not.toBe(message(input[1]!));
		expect(JSON.stringify(redactEntries(input, { header }))).toBe(JSON.stringify(first));
	});

	it("redacts a header passed in options or found among the entries, keeping its identity", () => {
		const session = SessionManager.inMemory("/p");
		const github = planted.find((p) => p.kind === "github-token")!;
		const header = { ...session.getHeader(), title: `fix ${github.secret}` };
		const viaOption = redactEntries([], { header });
		expect(viaOption.header?.title).toBe(`fix [REDACTED:github-token]`);
		expect(viaOption.header?.id).toBe(header.id);
		expect(viaOption.header?.cwd).toBe("/p");
		const inline = redactEntries([header]);
		expect(inline.entries[0]).toEqual(viaOption.header);
		expect(inline.summary.byEntry).toEqual([{ entryId: header.id, kinds: ["github-token"], previews: ["ghp_…"] }]);
	});

	it("treats a string under a secret-looking key in structured data as a secret", () => {
		const session = SessionManager.inMemory("/p");
		const id = session.appendCustomEntry("deploy", { env: { DB_PASSWORD: "plainFAKEpw42", PORT: "5432" } });
		const { entries, summary } = redactEntries(session.getEntries());
		expect(JSON.stringify(entries)).toContain('"DB_PASSWORD":"[REDACTED:secret-assignment]","PORT":"5432"');
		expect(summary.byEntry).toEqual([{ entryId: id, kinds: ["secret-assignment"], previews: ["plai…"] }]);
	});

	it("replaces the home directory with ~ everywhere when asked", () => {
		const home = "/home/fakeuser";
		const session = SessionManager.inMemory(`${home}/proj`);
		session.appendMessage(userMessage(`read ${home}/.ssh/config, not ${home}x/file; home is ${home}`));
		session.appendCustomEntry("paths", { [`${home}/proj`]: { file: `${home}/proj/a.ts` } });
		const header = session.getHeader();
		const off = redactEntries(session.getEntries(), { header, homeDir: home });
		expect(off.header?.cwd).toBe(`${home}/proj`);
		expect(JSON.stringify(off.entries)).toContain(`${home}/.ssh`);
		const on = redactEntries(session.getEntries(), { header, homeDir: home, homeAsTilde: true });
		expect(on.header?.cwd).toBe("~/proj");
		const json = JSON.stringify(on.entries);
		expect(json).toContain("read ~/.ssh/config, not /home/fakeuserx/file; home is ~");
		expect(json).toContain('{"~/proj":{"file":"~/proj/a.ts"}}');
		expect(json.replaceAll(`${home}x`, "")).not.toContain(home);
	});
});
