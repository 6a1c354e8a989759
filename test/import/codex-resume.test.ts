import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importFile } from "../../source/import/import-run.js";
import { SessionManager } from "../../source/session/session-manager.js";
import type { SessionMessageEntry, StoredEntry } from "../../source/session/types.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { fixture, fixtureBytes, importAndOpen, textOf, transcript } from "./import-helpers.js";

/*
 * Codex's resume (`reconstruct_history_from_rollout`, codex-rs/core/src/codex/rollout_reconstruction.rs
 * in openai/codex) rebuilds the model's history from the rollout's response items alone: a
 * `compacted` record replaces it, a `thread_rolled_back` event drops the last `num_turns` user
 * turns, and a `turn_aborted` event changes nothing (the interrupted turn's items and the
 * `<turn_aborted>` note Codex records stay). The real codex-03 (Codex Desktop 0.104) has five
 * turns; the other shapes are made here from it, with hand-made lines in the shapes Codex writes.
 */

const DESKTOP = "codex-03-desktop-0.104-custom-tool-websearch-redacted.jsonl";

type Line = { timestamp?: string; type?: string; payload?: Record<string, unknown> };

function lines(): Line[] {
	return fixtureBytes(DESKTOP)
		.toString("utf8")
		.trimEnd()
		.split("\n")
		.map((l) => JSON.parse(l) as Line);
}

function write(dir: string, out: Line[]): string {
	const path = join(dir, "rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl");
	writeFileSync(path, `${out.map((l) => JSON.stringify(l)).join("\n")}\n`);
	return path;
}

const isEvent = (l: Line, type: string) => l.type === "event_msg" && l.payload?.type === type;
const promptText = (l: Line) => String(l.payload?.message ?? "").replace("REDACTED_MESSAGE", "REDACTED_TEXT");

/** The user response items that say what a `user_message` event says (the prompts Codex sends). */
function isPromptItem(l: Line, prompts: Set<string>): boolean {
	if (l.type !== "response_item" || l.payload?.type !== "message" || l.payload.role !== "user") return false;
	const content = l.payload.content as { text?: string }[];
	return prompts.has(content[0]?.text ?? "");
}

const at = (s: number) => `2026-02-23T15:00:${String(s).padStart(2, "0")}.000Z`;
const line = (s: number, type: string, payload: Record<string, unknown>): Line => ({ timestamp: at(s), type, payload });
const userItem = (s: number, text: string) =>
	line(s, "response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
const answer = (s: number, text: string) =>
	line(s, "response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] });

async function leaves(sessionFile: string): Promise<StoredEntry[]> {
	const manager = await SessionManager.open(sessionFile, { breadcrumb: false, mustExist: true });
	try {
		const entries = manager.getEntries();
		const parents = new Set(entries.map((e) => e.parentId));
		return entries.filter((e) => !parents.has(e.id));
	} finally {
		await manager.close();
	}
}

describe("a Codex rollout resumes to what Codex's resume gives", () => {
	const temp = useTempAgentDir();

	it.each([
		"codex-01-cli-0.58-shell-reasoning.jsonl",
		"codex-02-desktop-0.104-compacted-images-redacted.jsonl",
		DESKTOP,
		"codex-04-legacy-2025-09-record-type-state.jsonl",
		"codex-05-vscode-0.39-patch-apply.jsonl",
	])("%s: no rollback, one branch", async (name) => {
		const { result } = await importAndOpen(fixture(name));
		expect(await leaves(result.sessionFile)).toHaveLength(1);
	});

	it("codex-03: each prompt is sent once, its user_message event left out as the echo it is", async () => {
		const { context, entries } = await importAndOpen(fixture(DESKTOP));
		const prompts = lines().filter((l) => isEvent(l, "user_message"));
		expect(prompts).toHaveLength(5);
		const users = context.messages.filter((m) => m.role === "user").map(textOf);
		for (const prompt of prompts) expect(users.filter((u) => u === promptText(prompt))).toHaveLength(1);
		const kept = entries.filter((e) => (e as { data?: Line }).data?.payload?.type === "user_message");
		expect(kept).toEqual([]);
	});

	it("prompts written only as user_message events (Codex Desktop 0.128) are kept, none sent", async () => {
		const all = lines();
		const prompts = new Set(all.filter((l) => isEvent(l, "user_message")).map(promptText));
		const path = write(
			temp.root,
			all.filter((l) => !isPromptItem(l, prompts)),
		);
		const { context, entries } = await importAndOpen(path);
		const kept = entries.flatMap((e) => {
			const data = (e as { data?: Line }).data;
			return e.type === "custom" && data?.payload?.type === "user_message" ? [data] : [];
		});
		expect(kept.map(promptText)).toEqual([...prompts]);
		expect(context.messages.filter((m) => m.role === "user").map(textOf)).not.toContain([...prompts][0]);
	});

	it("a thread rollback drops the last turns from the context; they stay on their own branch", async () => {
		const all = lines();
		const secondEnd = all.findIndex((l, i) => i > 186 && isEvent(l, "task_complete"));
		const firstEnd = all.findIndex((l) => isEvent(l, "task_complete"));
		const path = write(temp.root, [
			...all.slice(0, secondEnd + 1),
			line(1, "event_msg", { type: "thread_rolled_back", num_turns: 1 }),
			line(2, "event_msg", { type: "task_started", turn_id: "turn-after-rollback" }),
			userItem(3, "try it another way"),
			line(4, "event_msg", { type: "user_message", message: "try it another way", images: [] }),
			answer(5, "Done another way."),
			line(6, "event_msg", { type: "task_complete", turn_id: "turn-after-rollback" }),
		]);
		const { context, entries, result } = await importAndOpen(path);
		const users = context.messages.filter((m) => m.role === "user").map(textOf);
		const second = promptText(all.find((l, i) => i > firstEnd && isEvent(l, "user_message"))!);
		expect(users).not.toContain(second);
		expect(users).toContain(promptText(all.find((l) => isEvent(l, "user_message"))!));
		expect(users.at(-1)).toBe("try it another way");
		expect(textOf(context.messages.at(-1)!)).toBe("Done another way.");
		const ends = await leaves(result.sessionFile);
		expect(ends).toHaveLength(2);
		// The rolled-back turn is kept, on the branch that ends where Codex rolled it back.
		const messages = entries.flatMap((e) => (e.type === "message" ? [(e as SessionMessageEntry).message] : []));
		expect(messages.filter((m) => m.role === "user" && textOf(m) === second)).toHaveLength(1);
	});

	it("an interrupted turn stays in the context with Codex's <turn_aborted> note as context, one branch", async () => {
		const all = lines();
		const firstEnd = all.findIndex((l) => isEvent(l, "task_complete"));
		const note = "<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>";
		const path = write(temp.root, [
			...all.slice(0, firstEnd + 1),
			line(1, "event_msg", { type: "task_started", turn_id: "turn-aborted" }),
			userItem(2, "run the whole suite"),
			line(3, "event_msg", { type: "user_message", message: "run the whole suite", images: [] }),
			line(4, "response_item", {
				type: "function_call",
				name: "exec_command",
				arguments: '{"cmd":"npm test"}',
				call_id: "call_aborted",
			}),
			line(5, "event_msg", { type: "turn_aborted", turn_id: "turn-aborted", reason: "interrupted" }),
			userItem(6, note),
		]);
		const { context, result } = await importAndOpen(path);
		const last = context.messages.at(-1)!;
		expect(last.role).toBe("custom");
		expect(textOf(last)).toBe(note);
		expect(transcript(context).filter((t) => t === "user:run the whole suite")).toHaveLength(1);
		expect(await leaves(result.sessionFile)).toHaveLength(1);
	});

	it("a compaction with no replacement history (older Codex) keeps the user messages Codex rebuilds it with", async () => {
		const real = fixtureBytes("codex-01-cli-0.58-shell-reasoning.jsonl").toString("utf8").trimEnd().split("\n");
		const summary = "Another language model started to solve this problem: the chatbot-ui is wired to LM Studio.";
		const path = write(temp.root, [
			...real.map((l) => JSON.parse(l) as Line),
			line(1, "compacted", { message: summary }),
			line(2, "event_msg", { type: "context_compacted" }),
			userItem(3, "now write the README"),
			line(4, "event_msg", { type: "user_message", message: "now write the README", images: [] }),
			answer(5, "README written."),
		]);
		const { context } = await importAndOpen(path);
		expect(context.messages[0]).toMatchObject({ role: "compactionSummary", summary });
		expect(context.messages[1]!.role).toBe("custom");
		expect(textOf(context.messages[1]!)).toMatch(/^\[user\] finish up the users work by rigging up the chatbot-ui/);
		expect(transcript(context).slice(2)).toEqual(["user:now write the README", "assistant:README written."]);
	});

	it("a forked rollout is a session of its own that names the one it was forked from", async () => {
		// Hand-made: the real codex-05 as the parent, and a fork of it as Codex writes one (a new
		// session_meta with `forked_from_id`, the parent's history copied, then the fork's own turn).
		const parentLines = fixtureBytes("codex-05-vscode-0.39-patch-apply.jsonl").toString("utf8").trimEnd().split("\n");
		const meta = JSON.parse(parentLines[0]!) as Line & { payload: Record<string, unknown> };
		const parentId = String(meta.payload.id);
		const forkMeta = {
			...meta,
			payload: { ...meta.payload, id: "0199fork-0000-7000-8000-000000000001", forked_from_id: parentId },
		};
		const dir = join(temp.root, "sessions");
		mkdirSync(dir, { recursive: true });
		const parentPath = join(dir, "rollout-2025-09-20T10-00-00-parent.jsonl");
		writeFileSync(parentPath, `${parentLines.join("\n")}\n`);
		const forkPath = join(dir, "rollout-2025-09-21T10-00-00-fork.jsonl");
		const fork = [
			forkMeta,
			...parentLines.slice(1).map((l) => JSON.parse(l) as Line),
			userItem(1, "try the fork"),
			answer(2, "Forked."),
		];
		writeFileSync(forkPath, `${fork.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const parent = await importFile(parentPath, { from: "auto", dryRun: false, cwd: temp.root, cwdGiven: false });
		const child = await importFile(forkPath, { from: "auto", dryRun: false, cwd: temp.root, cwdGiven: false });
		if (parent.status === "skipped" || child.status === "skipped") throw new Error("skipped");
		const manager = await SessionManager.open(child.sessionFile, { breadcrumb: false, mustExist: true });
		try {
			const provenance = manager.getEntries()[0] as unknown as { data: { parentSourceId?: string } };
			expect(provenance.data.parentSourceId).toBe(parentId);
			expect(manager.getHeader().parentSession).toBe(parent.sessionFile);
			expect(textOf(manager.buildSessionContext().messages.at(-1)!)).toBe("Forked.");
		} finally {
			await manager.close();
		}
		expect(await leaves(child.sessionFile)).toHaveLength(1);
	});
});
