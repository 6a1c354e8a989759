/// <reference lib="dom" />
import { fullEntry } from "./bodies.js";
import { blocksOf, messageOf } from "./content.js";
import { str, type ViewEntry } from "./data.js";
import { el } from "./dom.js";
import { entryElement } from "./entry-view.js";
import type { PathContext } from "./message-view.js";
import type { SessionIndex } from "./session-index.js";

/** The main pane: the path root → the selected entry. */
export interface Conversation {
	readonly element: HTMLElement;
	/** Shows the path root → `id` and scrolls to `id`. */
	show(id: string): void;
	/** Hides tool calls and results (the no-tools filter). */
	setHideTools(hide: boolean): void;
}

/**
 * Entries rendered per step. A 10k-entry path is rendered from the selected end backwards, one
 * chunk at a time as the person scrolls up, so the first screen never waits for the whole path.
 */
const CHUNK = 40;

function pathContext(path: readonly ViewEntry[]): PathContext {
	const calls = new Set<string>();
	const results = new Map<string, ViewEntry>();
	const consumed = new Set<string>();
	for (const entry of path) {
		const message = messageOf(entry);
		if (!message) continue;
		if (message.role === "assistant") {
			for (const block of blocksOf(message.content)) if (block.kind === "toolCall") calls.add(block.id);
		} else if (message.role === "toolResult") {
			const callId = str(message.toolCallId);
			if (callId !== undefined && calls.has(callId) && !results.has(callId)) {
				results.set(callId, entry);
				consumed.add(entry.id);
			}
		}
	}
	return { results, consumed };
}

/**
 * The tool results that follow `entry` and answer its calls: a result is a child of the call (or of
 * an earlier result), so the path root → call alone would show every call as "no result".
 */
function resultsAfter(index: SessionIndex, entry: ViewEntry | undefined): ViewEntry[] {
	const message = entry ? messageOf(entry) : undefined;
	if (!entry || message?.role !== "assistant") return [];
	const open = new Set<string>();
	for (const block of blocksOf(message.content)) if (block.kind === "toolCall") open.add(block.id);
	const results: ViewEntry[] = [];
	let current = entry;
	while (open.size > 0) {
		const answers = index.childrenOf(current.id).filter((child) => {
			const reply = messageOf(child);
			const callId = reply?.role === "toolResult" ? str(reply.toolCallId) : undefined;
			return callId !== undefined && open.has(callId);
		});
		// Several answers on different branches: the one on the file's active path, else the first.
		const next = answers.find((child) => index.isActive(child.id)) ?? answers[0];
		if (!next) break;
		open.delete(str(messageOf(next)?.toolCallId) ?? "");
		results.push(next);
		current = next;
	}
	return results;
}

function withBody(entry: ViewEntry | undefined): ViewEntry | undefined {
	return entry && fullEntry(entry);
}

/** Builds the conversation pane; `prelude` (system prompt, tools) sits above the path. */
export function createConversation(index: SessionIndex, prelude: readonly HTMLElement[]): Conversation {
	const element = el("main", "conversation");
	element.id = "conversation";
	const earlier = el("button", "load-earlier");
	earlier.type = "button";
	const list = el("div", "entries");
	element.append(...prelude, earlier, list);

	let path: ViewEntry[] = [];
	let context: PathContext = { results: new Map(), consumed: new Set() };
	let start = 0;
	let earlierVisible = false;
	const targets = new Map<string, HTMLElement>();

	const build = (from: number, to: number): DocumentFragment => {
		const fragment = document.createDocumentFragment();
		// Pairing reads summaries; what is drawn reads whole entries (a lazy page parses their chunks now).
		const drawn: PathContext = {
			results: { get: (id) => withBody(context.results.get(id)) },
			consumed: context.consumed,
		};
		for (let i = from; i < to; i++) {
			const entry = path[i]!;
			const node = entryElement(fullEntry(entry), drawn);
			if (!node) continue;
			fragment.append(node);
			targets.set(entry.id, node);
			for (const call of node.querySelectorAll<HTMLElement>("details[data-result-id]")) {
				if (call.dataset.resultId) targets.set(call.dataset.resultId, call);
			}
		}
		return fragment;
	};
	// A chunk never starts between an assistant message and the tool results shown inside it.
	const chunkStart = (end: number): number => {
		let from = Math.max(0, end - CHUNK);
		while (from > 0 && context.consumed.has(path[from]!.id)) from--;
		return from;
	};
	const updateEarlier = (): void => {
		earlier.hidden = start === 0;
		earlier.textContent = `Show ${start.toLocaleString()} earlier entries`;
	};
	const loadEarlier = (): void => {
		if (start === 0) return;
		const from = chunkStart(start);
		const before = element.scrollHeight;
		list.prepend(build(from, start));
		start = from;
		// Keep what the person is looking at in place while content grows above it.
		element.scrollTop += element.scrollHeight - before;
		updateEarlier();
		if (earlierVisible) requestAnimationFrame(loadEarlier);
	};
	earlier.addEventListener("click", loadEarlier);
	new IntersectionObserver(
		(records) => {
			earlierVisible = records.some((record) => record.isIntersecting);
			if (earlierVisible) loadEarlier();
		},
		{ root: element, rootMargin: "800px 0px 0px 0px" },
	).observe(earlier);

	return {
		element,
		show(id) {
			path = index.pathTo(id);
			path.push(...resultsAfter(index, path.at(-1)));
			context = pathContext(path);
			targets.clear();
			start = chunkStart(path.length);
			list.replaceChildren(build(start, path.length));
			updateEarlier();
			const target = targets.get(id);
			if (!target) return;
			target.classList.add("target");
			// A tool result is shown inside its call: open it so the result is what the link shows.
			if (target instanceof HTMLDetailsElement) target.open = true;
			target.scrollIntoView({ block: "start" });
		},
		setHideTools(hide) {
			element.classList.toggle("hide-tools", hide);
		},
	};
}
