import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
// The peer itself, as a devDependency for this test only: the product never imports it.
import { SessionManager as PiSessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { readExportSource } from "../../source/export/export-io.js";
import { conversationLeaves } from "../../source/export/export-paths.js";
import { jsonlExportFromFile } from "../../source/export/jsonl-export.js";
import { buildSessionContext } from "../../source/session/session-context.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { storySession } from "./trajectory-sessions.js";

const FIXTURES = join(import.meta.dirname, "../fixtures");

/** What a context means to a model: roles, texts, images, tool calls, models; no timestamps. */
function meaning(messages: readonly AgentMessage[]): unknown[] {
	return messages.map((message) => {
		const m = message as unknown as Record<string, unknown>;
		const blocks =
			typeof m.content === "string" ? [{ type: "text", text: m.content }] : ((m.content as unknown[]) ?? []);
		const parts = blocks.map((block) => {
			const b = block as Record<string, unknown>;
			switch (b.type) {
				case "text":
					return { text: b.text };
				case "image":
					return { image: b.data, mimeType: b.mimeType };
				case "thinking":
					return { thinking: b.thinking };
				case "toolCall":
					return { call: b.id, name: b.name, arguments: b.arguments };
				default:
					return { other: b.type };
			}
		});
		return {
			role: m.role,
			parts,
			...(m.role === "assistant" ? { model: `${m.provider}/${m.model}` } : {}),
			...(m.role === "toolResult" ? { toolCallId: m.toolCallId, isError: m.isError } : {}),
			...(typeof m.summary === "string" ? { summary: m.summary } : {}),
			...(typeof m.customType === "string" ? { customType: m.customType } : {}),
			...(typeof m.command === "string" ? { command: m.command, output: m.output } : {}),
		};
	});
}

describe("--format pi: pi-coding-agent 0.73.1 reads the export to the context xcsh reads", () => {
	const temp = useTempAgentDir();

	/** Exports `input` as pi JSONL, opens it in pi at each of `leaves`, and compares with xcsh's context. */
	async function expectSameContexts(input: string, leaves?: readonly string[]): Promise<number> {
		const out = join(mkdtempSync(join(temp.root, "pi-")), "out.jsonl");
		await jsonlExportFromFile(input, out, temp.root, { format: "pi", scope: { kind: "tree" }, redact: false });
		const source = await readExportSource(input, temp.root);
		const pi = PiSessionManager.open(out, join(temp.root, "pi-sessions"));
		const targets = leaves ?? conversationLeaves(source.entries);
		// A v1 file gets its ids when it is migrated, afresh on each read: match entries by position.
		const piIds = pi.getEntries().map((entry) => entry.id);
		expect(piIds).toHaveLength(source.entries.length);
		for (const leaf of targets) {
			const ours = buildSessionContext(source.entries, leaf);
			pi.branch(piIds[source.entries.findIndex((entry) => entry.id === leaf)]!);
			const theirs = pi.buildSessionContext();
			expect(meaning(theirs.messages)).toEqual(meaning(ours.messages));
			expect(theirs.thinkingLevel).toBe(ours.thinkingLevel);
			const model = theirs.model ? `${theirs.model.provider}/${theirs.model.modelId}` : undefined;
			expect(model).toBe(ours.models.default);
		}
		return targets.length;
	}

	it("images from the blob store come inline, model changes carry {provider, modelId}, on every branch", async () => {
		const { session, ids } = await storySession(temp.root);
		const file = session.getSessionFile()!;
		await session.close();
		const stored = readFileSync(file, "utf8");
		expect(stored).toContain('"data":"blob:sha256:');
		expect(stored).toContain('"model":"openai/gpt-5"');

		// The defect this format fixes: pi reading xcsh's own file gets references, not images.
		const raw = join(mkdtempSync(join(temp.root, "raw-")), "raw.jsonl");
		copyFileSync(file, raw);
		const rawImages = PiSessionManager.open(raw, join(temp.root, "pi-sessions"))
			.buildSessionContext()
			.messages.flatMap((m) =>
				"content" in m && Array.isArray(m.content) ? (m.content as { type: string; data?: string }[]) : [],
			)
			.filter((block) => block.type === "image");
		expect(rawImages.map((image) => image.data?.slice(0, 12))).toEqual(["blob:sha256:", "blob:sha256:"]);

		expect(await expectSameContexts(file, [ids.mainLeaf, ids.sideLeaf, ids.firstTurn])).toBe(3);
		const out = join(temp.root, "story.jsonl");
		const result = runCli(["--export", file, out, "--format", "pi"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(result).toMatchObject({ status: 0, stderr: "" });
		expect(result.stdout).toBe(`Exported to: ${out}\n19 entries\n1 secret redacted (1 github-token)\n`);
		const text = readFileSync(out, "utf8");
		expect(text).not.toContain("blob:sha256:");
		const pi = PiSessionManager.open(out, join(temp.root, "pi-sessions"));
		const context = pi.buildSessionContext();
		expect(context.model).toEqual({ provider: "openai", modelId: "gpt-5" });
		const images = context.messages.flatMap((m) =>
			"content" in m && Array.isArray(m.content) ? m.content.filter((b) => b.type === "image") : [],
		);
		expect(images).toHaveLength(2);
		for (const image of images)
			expect(Buffer.from((image as { data: string }).data, "base64").length).toBeGreaterThan(2000);
		expect(pi.getLabel(ids.prompt)).toBe("start");
		const lines = text
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(lines.filter((l) => l.type === "model_change")).toEqual([
			expect.objectContaining({ provider: "anthropic", modelId: "claude-sonnet-4-5" }),
			expect.objectContaining({ provider: "openai", modelId: "gpt-5" }),
		]);
		// The smol model is xcsh's alone: pi keeps it as data outside its context.
		expect(lines.find((l) => l.type === "custom")).toMatchObject({
			customType: "xcsh.model_change",
			data: { model: "openai/gpt-5-mini", role: "smol" },
		});
	});

	it("--branch writes only the path to the last entry; pi opens it at the same leaf", async () => {
		const { session, ids } = await storySession(temp.root);
		const file = session.getSessionFile()!;
		await session.close();
		const out = join(temp.root, "branch.jsonl");
		const result = runCli(["export", file, out, "--format", "pi", "--branch", "--no-redact"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(result.stdout).toBe(`Exported to: ${out}\n16 entries\nNot redacted (--no-redact)\n`);
		const text = readFileSync(out, "utf8");
		expect(text).not.toContain("SIDEPROMPT");
		expect(text).toContain("FINALANSWER");
		const pi = PiSessionManager.open(out, join(temp.root, "pi-sessions"));
		expect(pi.getLeafId()).toBe(ids.mainLeaf);
	});

	it("the real pi and upstream fixtures (v1 migrated in memory, compactions, a thousand entries) read the same in pi", async () => {
		const files = [
			join(FIXTURES, "upstream-v1/before-compaction.jsonl"),
			join(FIXTURES, "upstream-v1/large-session.jsonl"),
			...readdirSync(join(FIXTURES, "foreign"))
				.filter((name) => name.startsWith("pi-"))
				.map((name) => join(FIXTURES, "foreign", name)),
		];
		let leaves = 0;
		for (const file of files) leaves += await expectSameContexts(file);
		expect(leaves).toBeGreaterThanOrEqual(files.length);
	});

	it("an image whose blob is gone becomes a note, and the export says how many", async () => {
		const { session } = await storySession(temp.root);
		const file = session.getSessionFile()!;
		await session.close();
		const blobs = join(temp.agentDir, "blobs");
		for (const name of readdirSync(blobs)) rmSync(join(blobs, name));
		const out = join(temp.root, "missing.jsonl");
		const result = runCli(["--export", file, out, "--format", "pi", "--no-redact"], {
			agentDir: temp.agentDir,
			cwd: temp.root,
		});
		expect(result.stdout).toContain("\n2 images missing from the blob store (written as a note)\n");
		const text = readFileSync(out, "utf8");
		expect(text).toContain("[image missing from the blob store: blob:sha256:");
		expect(text).not.toContain('"data":"blob:sha256:');
	});
});

describe("the product never depends on pi-coding-agent", () => {
	it("no file under source/, components/ or controllers/ imports it", () => {
		const root = join(import.meta.dirname, "../..");
		const offenders: string[] = [];
		let scanned = 0;
		for (const dir of ["source", "components", "controllers"]) {
			for (const name of readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })) {
				if (!/\.(ts|tsx|js|mjs)$/.test(name)) continue;
				scanned++;
				const text = readFileSync(join(root, dir, name), "utf8");
				if (/(from|import|require)\s*\(?\s*["']@mariozechner\/pi-coding-agent/.test(text))
					offenders.push(`${dir}/${name}`);
			}
		}
		expect(scanned).toBeGreaterThan(100);
		expect(offenders).toEqual([]);
	});
});
