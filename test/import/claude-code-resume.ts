import type { SessionContext } from "../../source/session/types.js";

/*
 * What Claude Code itself sends when it resumes a transcript, rebuilt from the rule its loader
 * follows (read in public re-implementations of its `sessionStorage` / `messages` code), so a test
 * can set xcsh's context beside it:
 *   1. `progress` lines are not messages: a line whose parent is one points at the progress
 *      chain's first ancestor that is a message (the legacy progress bridge).
 *   2. The leaf is the newest user/assistant line reached walking back from a line nothing points
 *      at; the chain is the walk from it up the `parentUuid` links (a compact boundary has none,
 *      so the walk stops there).
 *   3. Parallel tool calls: every line of a response that touches the chain (same `message.id`)
 *      and every tool result whose parent is one of them, if the walk missed them, are put right
 *      after the response's last line on the chain (lines first, then results, each by time).
 *   4. For the API, lines of one response merge into one assistant message (searching back past
 *      tool results and other responses), adjacent user messages merge, and only user and
 *      assistant messages (and `system` / `local_command` output, as user text) are sent.
 * Each message is given as its blocks' signatures (`text:<start>`, `thinking`, `tool_use:<id>`,
 * `tool_result:<id>`), which `contextSignature` gives for xcsh's context too.
 */

type Line = Record<string, unknown> & { uuid: string; parentUuid?: string | null; type: string; timestamp?: string };

/** One API message as its role and its blocks' signatures. */
export interface SignedMessage {
	role: "user" | "assistant";
	blocks: string[];
}

const TEXT_START = 60;

function textSign(text: string): string {
	return `text:${text.trim().slice(0, TEXT_START)}`;
}

function blocksOf(line: Line): Record<string, unknown>[] {
	const message = line.message as { content?: unknown } | undefined;
	const content = line.type === "system" ? line.content : message?.content;
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? (content as Record<string, unknown>[]) : [];
}

function signBlocks(blocks: Record<string, unknown>[]): string[] {
	const out: string[] = [];
	for (const block of blocks) {
		if (block.type === "text" && typeof block.text === "string" && block.text.trim() !== "")
			out.push(textSign(block.text));
		else if (block.type === "thinking" || block.type === "redacted_thinking") out.push("thinking");
		else if (block.type === "tool_use") out.push(`tool_use:${String(block.id)}`);
		else if (block.type === "tool_result") out.push(`tool_result:${String(block.tool_use_id)}`);
	}
	return out;
}

const messageId = (line: Line): string | undefined => (line.message as { id?: string } | undefined)?.id;
const isToolResultLine = (line: Line): boolean =>
	line.type === "user" && blocksOf(line).some((block) => block.type === "tool_result");
const sent = (line: Line): boolean =>
	line.type === "user" ||
	(line.type === "assistant" && line.isApiErrorMessage !== true) ||
	(line.type === "system" && line.subtype === "local_command");

/**
 * The messages Claude Code sends on resuming the transcript `text`. `trailingCommands`: count
 * `/command` outputs after the last user/assistant line too, as xcsh does (see claude-code-tree.ts).
 */
export function claudeResume(text: string, trailingCommands = false): SignedMessage[] {
	const lines = text
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l) as Line);
	const progressParent = new Map<string, string | null>();
	const messages = new Map<string, Line>();
	const bridged = (parent: string | null | undefined): string | null => {
		let at = parent ?? null;
		while (at !== null && progressParent.has(at)) at = progressParent.get(at)!;
		return at;
	};
	for (const line of lines) {
		if (typeof line.uuid !== "string") continue;
		if (line.type === "progress") progressParent.set(line.uuid, bridged(line.parentUuid));
		else if (["user", "assistant", "system", "attachment"].includes(line.type))
			messages.set(line.uuid, { ...line, parentUuid: bridged(line.parentUuid) });
	}
	const leaf = resumeLeaf(messages, trailingCommands);
	if (!leaf) return [];
	const chain: Line[] = [];
	const seen = new Set<string>();
	for (let at: Line | undefined = leaf; at && !seen.has(at.uuid); at = messages.get(at.parentUuid ?? "")) {
		seen.add(at.uuid);
		chain.push(at);
	}
	chain.reverse();
	return forApi(recoverParallel(messages, chain, seen));
}

/** The newest user/assistant line reached walking back from a line nothing points at (a main-line one if any). */
function resumeLeaf(messages: Map<string, Line>, trailingCommands: boolean): Line | undefined {
	const leafType = (m: Line) =>
		m.type === "user" || m.type === "assistant" || (trailingCommands && m.subtype === "local_command");
	const parents = new Set([...messages.values()].map((m) => m.parentUuid));
	let leaf: Line | undefined;
	let sideLeaf: Line | undefined;
	const newer = (a: Line, than: Line | undefined) =>
		!than || Date.parse(String(a.timestamp)) > Date.parse(String(than.timestamp));
	for (const terminal of messages.values()) {
		if (parents.has(terminal.uuid)) continue;
		let at: Line | undefined = terminal;
		const seen = new Set<string>();
		while (at && !seen.has(at.uuid) && !leafType(at)) {
			seen.add(at.uuid);
			at = messages.get(at.parentUuid ?? "");
		}
		if (!at || !leafType(at)) continue;
		if (at.isSidechain !== true && newer(at, leaf)) leaf = at;
		if (at.isSidechain === true && newer(at, sideLeaf)) sideLeaf = at;
	}
	// A subagent's transcript is all side chain: its own leaf.
	return leaf ?? sideLeaf;
}

function recoverParallel(messages: Map<string, Line>, chain: Line[], seen: Set<string>): Line[] {
	const byId = new Map<string, Line[]>();
	const resultsOf = new Map<string, Line[]>();
	for (const m of messages.values()) {
		const id = m.type === "assistant" ? messageId(m) : undefined;
		if (id) byId.set(id, [...(byId.get(id) ?? []), m]);
		else if (isToolResultLine(m) && m.parentUuid)
			resultsOf.set(m.parentUuid, [...(resultsOf.get(m.parentUuid) ?? []), m]);
	}
	const anchors = new Map<string, Line>();
	for (const m of chain) if (m.type === "assistant" && messageId(m)) anchors.set(messageId(m)!, m);
	const inserts = new Map<string, Line[]>();
	const byTime = (a: Line, b: Line) => String(a.timestamp).localeCompare(String(b.timestamp));
	for (const [id, anchor] of anchors) {
		const group = byId.get(id) ?? [];
		const siblings = group.filter((m) => !seen.has(m.uuid)).sort(byTime);
		const results = group
			.flatMap((m) => resultsOf.get(m.uuid) ?? [])
			.filter((m) => !seen.has(m.uuid))
			.sort(byTime);
		if (siblings.length + results.length === 0) continue;
		for (const m of [...siblings, ...results]) seen.add(m.uuid);
		inserts.set(anchor.uuid, [...siblings, ...results]);
	}
	return chain.flatMap((m) => [m, ...(inserts.get(m.uuid) ?? [])]);
}

function forApi(chain: Line[]): SignedMessage[] {
	const out: (SignedMessage & { id?: string })[] = [];
	for (const line of chain) {
		if (!sent(line)) continue;
		const blocks = signBlocks(blocksOf(line));
		if (line.type === "assistant") {
			const id = messageId(line);
			let merged = false;
			for (let i = out.length - 1; i >= 0; i--) {
				const m = out[i]!;
				if (m.role === "user" && !m.blocks.every((b) => b.startsWith("tool_result:"))) break;
				if (m.role === "assistant" && id !== undefined && m.id === id) {
					m.blocks.push(...blocks);
					merged = true;
					break;
				}
			}
			if (!merged) out.push({ role: "assistant", blocks, ...(id ? { id } : {}) });
		} else {
			const last = out.at(-1);
			if (last?.role === "user") last.blocks.push(...blocks);
			else out.push({ role: "user", blocks });
		}
	}
	return out.map(({ role, blocks }) => ({ role, blocks }));
}

/** xcsh's context in the same shape: tool results, user and injected messages fold into one user message. */
export function contextSignature(context: SessionContext): SignedMessage[] {
	const out: SignedMessage[] = [];
	const user = (blocks: string[]) => {
		const last = out.at(-1);
		if (last?.role === "user") last.blocks.push(...blocks);
		else out.push({ role: "user", blocks });
	};
	for (const message of context.messages) {
		switch (message.role) {
			case "assistant":
				out.push({
					role: "assistant",
					blocks: signBlocks(
						message.content.map((b) =>
							b.type === "toolCall"
								? { type: "tool_use", id: b.id }
								: b.type === "thinking"
									? { type: "thinking" }
									: { type: "text", text: b.text },
						),
					),
				});
				break;
			case "toolResult":
				user([`tool_result:${message.toolCallId}`]);
				break;
			case "compactionSummary":
				user([textSign(message.summary)]);
				break;
			default: {
				const content = (message as { content?: unknown }).content;
				user(signBlocks(typeof content === "string" ? [{ type: "text", text: content }] : (content as never[])));
			}
		}
	}
	return out;
}
