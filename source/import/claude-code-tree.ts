import { textOfContent } from "./claude-code-blocks.js";
import type { ClaudeResponse, LooseItem } from "./claude-code-response.js";
import { IMPORT_CUSTOM_TYPE, type ItemSink, type PlanBody, type PlanItem } from "./import-plan.js";
import { KeyColumn, KeyTable, KeyToKey } from "./key-table.js";
import { ModelChanges } from "./message-build.js";
import { isRecord, str } from "./source-lines.js";

/** A compact boundary read, waiting for the summary line that follows it. */
interface PendingCompaction {
	readonly key: string;
	readonly parent: string | null;
	readonly timestamp: string;
	readonly record: Record<string, unknown>;
	/** Side records between the boundary and the summary: placed after the compaction. */
	readonly sides: { key: string; timestamp: string | undefined; record: Record<string, unknown> }[];
}

/** An item whose time comes from the next dated record (records before the first one have none). */
type Undated = { -readonly [K in keyof PlanItem]: PlanItem[K] };

/**
 * The items of one Claude Code transcript as a tree, sent on in order as they become final: an
 * open response, a compact boundary without its summary yet, or a record not yet dated holds
 * back everything after it.
 */
export class ClaudeTree {
	#items: PlanItem[] = [];
	readonly #sink: ItemSink;
	readonly #models: ModelChanges;
	readonly #send = (item: PlanItem) => this.#sink.item(item);
	/** Every uuid and key read, numbered (the columns below are by these numbers). */
	readonly #keys: KeyTable;
	/** A uuid read into another item (a closed response's lines, a compact summary) → that item. */
	readonly #redirect = new KeyColumn();
	/** An item → the side record placed right after it (conversation continues through it). */
	readonly #through = new KeyColumn();
	/** 1 for the keys of the items made. */
	readonly #known = new KeyColumn();
	#open: ClaudeResponse | undefined;
	#compaction: PendingCompaction | undefined;
	#undated: Undated[] = [];
	readonly toolNames = new KeyToKey();
	tip: string | null = null;
	mainLeaf: string | undefined;

	constructor(sink: ItemSink) {
		this.#sink = sink;
		this.#keys = sink.keys ?? new KeyTable();
		this.#models = new ModelChanges(this.#keys);
	}

	#isKnown(key: string): boolean {
		return this.#known.get(this.#keys.indexOf(key)) === 1;
	}

	/** The item a uuid was read into, if it was read into another. */
	#redirected(uuid: string): string | undefined {
		const target = this.#redirect.get(this.#keys.indexOf(uuid));
		return target < 0 ? undefined : this.#keys.keyAt(target);
	}

	#setRedirect(uuid: string, key: string): void {
		this.#redirect.set(this.#keys.add(uuid), this.#keys.add(key));
	}

	/** Sends on the items read so far, unless one of them can still change. */
	flush(): void {
		if (this.#open || this.#compaction || this.#undated.length > 0 || this.#items.length === 0) return;
		const items = this.#items;
		this.#items = [];
		for (const item of items) this.#models.feed(item, this.#send);
	}

	/** Ends the source: closes what is open, dates what has no time (`lastTime`), sends every item left. */
	end(lastTime: string): void {
		this.closeResponse(undefined);
		if (this.#compaction) this.#placeCompaction("", undefined);
		this.dated(lastTime);
		this.flush();
	}

	/** A record with a time was read: records before it that had none take its time. */
	dated(time: string): void {
		for (const item of this.#undated) item.timestamp = time;
		this.#undated = [];
	}

	/** Whether a uuid was already read (a resumed session copies records with a new sessionId). */
	has(uuid: string): boolean {
		return (
			this.#isKnown(uuid) ||
			this.#redirected(uuid) !== undefined ||
			this.#open?.holds(uuid) === true ||
			this.#compaction?.key === uuid ||
			this.#compaction?.sides.some((side) => side.key === uuid) === true
		);
	}

	/** The item a line with this parentUuid goes under (the tip for a parent outside this file). */
	resolve(parentUuid: unknown): string | null {
		if (typeof parentUuid !== "string") return null;
		const key = this.#redirected(parentUuid) ?? parentUuid;
		let index = this.#keys.indexOf(key);
		// A parent outside this file (a subagent's first line points into the main session) starts at the tip.
		if (this.#known.get(index) !== 1) return this.tip;
		const start = index;
		for (let next = this.#through.get(index); next >= 0; next = this.#through.get(index)) index = next;
		return index === start ? key : this.#keys.keyAt(index);
	}

	add(item: PlanItem, sidechain: boolean): void {
		this.#items.push(item);
		this.#known.set(this.#keys.add(item.key), 1);
		this.tip = item.key;
		if (!sidechain) {
			this.mainLeaf = item.key;
			this.#sink.leaf?.(item.key);
		}
	}

	/** A record with no conversational meaning (or sent as is, `body`), kept at the tip; undated ones wait for a time. */
	side(key: string, timestamp: string | undefined, record: Record<string, unknown>, sidechain: boolean): void {
		const loose: LooseItem = { key, timestamp: timestamp ?? "", body: sideBody(record) };
		if (this.#open) this.#open.addSide(str(record.uuid), str(record.parentUuid), loose.timestamp, loose);
		else if (this.#compaction) this.#compaction.sides.push({ key, timestamp, record });
		else {
			const parent = this.tip;
			const item: Undated = { ...loose, parent };
			if (timestamp === undefined) this.#undated.push(item);
			this.add(item, sidechain);
			const under = parent === null ? -1 : this.#keys.add(parent);
			if (under >= 0 && this.#through.get(under) < 0) this.#through.set(under, this.#keys.add(key));
		}
	}

	/** The response being read, if any. */
	get open(): ClaudeResponse | undefined {
		return this.#open;
	}

	/** Starts a response (the one before is closed first: `closeResponse`). */
	openResponse(response: ClaudeResponse): void {
		this.#open = response;
	}

	/** Closes the open response, if any: it becomes its items (`next`: the parentUuid of the line after it). */
	closeResponse(next: string | undefined): void {
		const response = this.#open;
		if (!response) return;
		this.#open = undefined;
		const { items, end } = response.close(next);
		for (const item of items) this.add(item, response.sidechain);
		// A later line under any line of the response continues after all of it.
		for (const uuid of response.uuids()) this.#setRedirect(uuid, end);
	}

	/** Results whose response is over: each chains after the last result of the same item. */
	readonly #resultTip = new KeyColumn();

	/** Adds the items of a tool result line whose response was closed before it. */
	lateResults(parentUuid: unknown, items: LooseItem[], sidechain: boolean): void {
		const under = this.resolve(parentUuid);
		const tip = under === null ? -1 : this.#resultTip.get(this.#keys.indexOf(under));
		let parent = under === null ? null : tip >= 0 ? this.#keys.keyAt(tip) : under;
		for (const item of items) {
			this.add({ ...item, parent }, sidechain);
			parent = item.key;
		}
		if (under !== null && parent !== null) this.#resultTip.set(this.#keys.add(under), this.#keys.add(parent));
	}

	/**
	 * A compact boundary: what comes after it starts from its summary. It hangs under the line it
	 * logically follows (`logicalParentUuid`), so the history before it stays on the path, shown
	 * but no longer sent.
	 */
	boundary(uuid: string, timestamp: string, record: Record<string, unknown>): void {
		const logical = str(record.logicalParentUuid);
		this.closeResponse(logical);
		if (this.#compaction) this.#placeCompaction("", undefined);
		const segment = preservedSegment(record);
		// A kept segment (newer versions) is the history up to the boundary: it must end right before it.
		const parent = this.resolve(segment?.tail ?? logical ?? null) ?? this.tip;
		this.#compaction = { key: uuid, parent, timestamp, record, sides: [] };
	}

	/** A compact summary line: true when it completes the boundary before it. */
	summary(uuid: string, record: Record<string, unknown>): boolean {
		if (!this.#compaction) return false;
		const message = isRecord(record.message) ? record.message : {};
		this.#setRedirect(uuid, this.#compaction.key);
		this.#placeCompaction(textOfContent(message.content), record);
		return true;
	}

	/** Any other line after a boundary: the compaction is placed (without a summary if none came). */
	settleCompaction(): void {
		if (this.#compaction) this.#placeCompaction("", undefined);
	}

	#placeCompaction(summary: string, summaryRecord: Record<string, unknown> | undefined): void {
		const pending = this.#compaction!;
		this.#compaction = undefined;
		const metadata = isRecord(pending.record.compactMetadata) ? pending.record.compactMetadata : {};
		const head = preservedSegment(pending.record)?.head;
		const kept = head === undefined ? undefined : (this.#redirected(head) ?? head);
		const details: Record<string, unknown> = { boundary: pending.record };
		if (summaryRecord) {
			const message = isRecord(summaryRecord.message) ? summaryRecord.message : {};
			// The summary is the entry's own text; the rest of its line is kept beside the boundary.
			details.summaryLine = { ...summaryRecord, message: { ...message, content: undefined } };
		}
		const body: PlanBody = {
			kind: "compaction",
			summary,
			firstKeptKey: kept !== undefined && this.#isKnown(kept) ? kept : null,
			tokensBefore: typeof metadata.preTokens === "number" ? metadata.preTokens : 0,
			details,
		};
		this.add({ key: pending.key, parent: pending.parent, timestamp: pending.timestamp, body }, false);
		for (const side of pending.sides) this.side(side.key, side.timestamp, side.record, false);
	}
}

/** The kept segment a boundary names (`compactMetadata.preservedSegment`), if any. */
function preservedSegment(record: Record<string, unknown>): { head: string; tail?: string } | undefined {
	const metadata = isRecord(record.compactMetadata) ? record.compactMetadata : {};
	const segment = isRecord(metadata.preservedSegment) ? metadata.preservedSegment : undefined;
	const head = str(segment?.headUuid);
	if (head === undefined) return undefined;
	const tail = str(segment?.tailUuid);
	return tail === undefined ? { head } : { head, tail };
}

/**
 * What a side record becomes: a `/command`'s output (`system` / `local_command`), which Claude
 * Code sends to the model as a user message, is hidden context; anything else is kept whole.
 * (Claude Code's resume leaves out outputs after the last user or assistant line; xcsh sends
 * them: whether one is last is only known once the source ends, and an item must not change
 * when its source grows, or the session could not be appended to.)
 */
function sideBody(record: Record<string, unknown>): PlanBody {
	if (record.type === "system" && record.subtype === "local_command" && typeof record.content === "string")
		return { kind: "hidden", content: record.content, details: { ...record, content: undefined } };
	return { kind: "custom", customType: IMPORT_CUSTOM_TYPE, data: record };
}
