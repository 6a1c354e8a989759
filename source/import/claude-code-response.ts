import { type AssistantBlock, STOP } from "./claude-code-blocks.js";
import type { PlanItem } from "./import-plan.js";
import { assistantOf } from "./message-build.js";
import { isRecord, str } from "./source-lines.js";

/*
 * One API response of a Claude Code transcript, with the tool results and side records written
 * while it was open. Claude Code 2.1 writes each content block of a response on its own line
 * (sharing `message.id`), runs the tools while the response streams, and points each result line
 * at its own call's line, so the lines of one response and its results form a small tree, not a
 * chain. Claude Code's resume (its loader's `buildConversationChain` and
 * `recoverOrphanedParallelToolResults`, then `normalizeMessagesForAPI`) walks the chain from the
 * next line back, puts the response's lines and results the walk missed right after its last line
 * on the chain (lines first, then results, each in time order), then merges the lines into one
 * assistant message and the results into the user message after it. The response is closed when
 * the next line that is not part of it is read; it then becomes that: one assistant item holding
 * every block in that order, followed by its results in that order and its side records where
 * they were, all on one chain (no dead ends).
 */

/** One assistant line of the response. */
export interface ResponseLine {
	readonly uuid: string;
	readonly parentUuid: string | undefined;
	readonly timestamp: string;
	readonly blocks: AssistantBlock[];
	/** The line's `message` (model, usage, stop reason). */
	readonly message: Record<string, unknown>;
	readonly apiError: boolean;
}

/** An item of the response whose parent is set when the response closes. */
export type LooseItem = Omit<PlanItem, "parent">;

type Unit =
	| { kind: "line"; uuid: string; timestamp: string; line: ResponseLine }
	| { kind: "results"; uuid: string; timestamp: string; items: LooseItem[] }
	| { kind: "side"; uuid: string | undefined; timestamp: string; items: LooseItem[] };

/** A response being read, and what it becomes once closed. */
export class ClaudeResponse {
	/** The assistant item's key: the response's first line. */
	readonly key: string;
	readonly messageId: string;
	readonly sidechain: boolean;
	readonly #parent: string | null;
	readonly #units: Unit[] = [];
	/** Each line's uuid → its parentUuid, for the walk back from the next line. */
	readonly #parentOf = new Map<string, string | undefined>();
	readonly #calls = new Set<string>();

	constructor(messageId: string, first: ResponseLine, parent: string | null, sidechain: boolean) {
		this.messageId = messageId;
		this.key = first.uuid;
		this.#parent = parent;
		this.sidechain = sidechain;
		this.addLine(first);
	}

	/** Adds a later line of the response. */
	addLine(line: ResponseLine): void {
		this.#units.push({ kind: "line", uuid: line.uuid, timestamp: line.timestamp, line });
		this.#parentOf.set(line.uuid, line.parentUuid);
		for (const block of line.blocks) if (block.type === "toolCall") this.#calls.add(block.id);
	}

	/** Whether a tool result line answers this response (one of its calls, or its parent is one of its lines). */
	answers(callIds: readonly string[], parentUuid: string | undefined): boolean {
		return callIds.some((id) => this.#calls.has(id)) || (parentUuid !== undefined && this.#parentOf.has(parentUuid));
	}

	/** Adds a tool result line's items (its results, and its other content after them). */
	addResults(uuid: string, parentUuid: string | undefined, timestamp: string, items: LooseItem[]): void {
		this.#units.push({ kind: "results", uuid, timestamp, items });
		this.#parentOf.set(uuid, parentUuid);
	}

	/** Adds a record written while the response was open, kept where it was. */
	addSide(uuid: string | undefined, parentUuid: string | undefined, timestamp: string, item: LooseItem): void {
		this.#units.push({ kind: "side", uuid, timestamp, items: [item] });
		if (uuid !== undefined) this.#parentOf.set(uuid, parentUuid);
	}

	/** Whether a line with this uuid was read into the response. */
	holds(uuid: string): boolean {
		return this.#parentOf.has(uuid);
	}

	/** Every uuid read into the response. */
	uuids(): IterableIterator<string> {
		return this.#parentOf.keys();
	}

	/** The items the response becomes (`next`: the parentUuid of the line that closed it); `end` is the last. */
	close(next: string | undefined): { items: PlanItem[]; end: string } {
		const order = this.#claudeOrder(next);
		const lines = order.flatMap((unit) => (unit.kind === "line" ? [unit.line] : []));
		const results = order.filter((unit) => unit.kind === "results");
		const items: PlanItem[] = [this.#assistantItem(lines)];
		let parent = this.key;
		let nextResult = 0;
		for (const unit of this.#units) {
			if (unit.kind === "line") continue;
			const placed = unit.kind === "results" ? results[nextResult++]! : unit;
			for (const item of placed.items) {
				items.push({ ...item, parent });
				parent = item.key;
			}
		}
		return { items, end: parent };
	}

	/**
	 * The response's lines and results in the order Claude Code's resume gives them: those on the
	 * chain back from `next` in chain order, with the ones off it right after its last line on it.
	 */
	#claudeOrder(next: string | undefined): Unit[] {
		const units = this.#units.filter((unit) => unit.kind !== "side");
		const last = this.#units.at(-1)?.uuid;
		const onChain = new Set<string>();
		let at = next !== undefined && this.#parentOf.has(next) ? next : last;
		while (at !== undefined && this.#parentOf.has(at) && !onChain.has(at)) {
			onChain.add(at);
			at = this.#parentOf.get(at);
		}
		const chained = units.filter((unit) => onChain.has(unit.uuid));
		const anchor = chained.findLastIndex((unit) => unit.kind === "line");
		if (anchor < 0) return units;
		const byTime = (a: Unit, b: Unit) => a.timestamp.localeCompare(b.timestamp);
		const off = (kind: Unit["kind"]) =>
			units.filter((unit) => unit.kind === kind && !onChain.has(unit.uuid)).sort(byTime);
		return [...chained.slice(0, anchor + 1), ...off("line"), ...off("results"), ...chained.slice(anchor + 1)];
	}

	/** One assistant message of every line's blocks; its usage is the last line's (each line repeats it, growing). */
	#assistantItem(lines: ResponseLine[]): PlanItem {
		const first = this.#units[0] as Extract<Unit, { kind: "line" }>;
		const written = this.#units.flatMap((unit) => (unit.kind === "line" ? [unit.line] : []));
		const final = written.at(-1)!.message;
		const usage = isRecord(final.usage) ? final.usage : {};
		const stop = [...written].reverse().find((line) => STOP[str(line.message.stop_reason) ?? ""]);
		const apiError = written.some((line) => line.apiError);
		const message = assistantOf({
			content: lines.flatMap((line) => line.blocks),
			api: "anthropic-messages",
			provider: "anthropic",
			model: str(first.line.message.model) ?? "",
			tokens: {
				input: usage.input_tokens as number,
				output: usage.output_tokens as number,
				cacheRead: usage.cache_read_input_tokens as number,
				cacheWrite: usage.cache_creation_input_tokens as number,
			},
			...(stop ? { stopReason: STOP[str(stop.message.stop_reason)!] } : {}),
			...(apiError ? { stopReason: "error" as const, errorMessage: "API error" } : {}),
			timestamp: first.timestamp,
		});
		return { key: this.key, parent: this.#parent, timestamp: first.timestamp, body: { kind: "message", message } };
	}
}
