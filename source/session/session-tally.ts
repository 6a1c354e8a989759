import { type EntrySlot, factsOf, isLazy, type LazyEntry, residentEntry, type UsageFacts } from "./lazy-entry.js";
import type { SkeletonColumns } from "./skeleton-columns.js";
import type { SessionEntry, StoredEntry } from "./types.js";

/** What a session's entries add up to without reading a body: labels by target, usage, whether any assistant answered. */
export class SessionTally {
	readonly labels = new Map<string, string>();
	usage: UsageFacts = { input: 0, output: 0, cacheRead: 0, cost: 0 };
	hasAssistant = false;

	/** The tally of these entries, in order. */
	static of(entries: readonly EntrySlot[]): SessionTally {
		const tally = new SessionTally();
		for (const entry of entries) tally.add(entry);
		return tally;
	}

	/** The tally of a skeleton's rows at once: labels from the pinned label entries, totals from the usage column. */
	static ofRows(columns: SkeletonColumns): SessionTally {
		const tally = new SessionTally();
		const labels: [number, StoredEntry][] = [];
		for (const pin of columns.pins()) if (pin[1].type === "label") labels.push(pin);
		labels.sort((a, b) => a[0] - b[0]);
		for (const [, entry] of labels) tally.add(entry);
		const totals = columns.assistantTotals();
		tally.hasAssistant = totals.any;
		tally.usage = totals.usage;
		return tally;
	}

	/** Counts one more entry: a label sets (or clears) its target's label, an assistant message adds its usage. */
	add(entry: EntrySlot): void {
		const resident = residentEntry(entry);
		if (entry.type === "label" && resident) {
			const { targetId, label } = resident as SessionEntry & { type: "label" };
			if (label === undefined) this.labels.delete(targetId);
			else this.labels.set(targetId, label);
			return;
		}
		if (entry.type !== "message") return;
		const facts = isLazy(entry) ? undefined : factsOf(entry as StoredEntry);
		const role = facts ? facts.role : (entry as LazyEntry).role;
		if (role !== "assistant") return;
		this.hasAssistant = true;
		const usage = facts ? facts.usage : (entry as LazyEntry).usage;
		if (usage) {
			this.usage.input += usage.input;
			this.usage.output += usage.output;
			this.usage.cacheRead += usage.cacheRead;
			this.usage.cost += usage.cost;
		}
	}
}
