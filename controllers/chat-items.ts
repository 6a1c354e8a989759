import type { ChatItem } from "./chat-controller.js";

/** Makes the item of the history's `index`-th entry (it exists: `ChatItems.history` was told so). */
export type MakeItem = (index: number) => ChatItem;

/**
 * The history part of the chat: `count` items made only when asked for, then kept (a drawn item
 * keeps its cached rows). A big session's active path has half a million entries; making an
 * object for each one at open was a tenth of a second and most of the young-generation GC.
 */
class HistoryPart {
	readonly #made = new Map<number, ChatItem>();

	constructor(
		readonly count: number,
		readonly make: MakeItem,
	) {}

	at(index: number): ChatItem {
		let item = this.#made.get(index);
		if (!item) {
			item = this.make(index);
			this.#made.set(index, item);
		}
		return item;
	}
}

/**
 * The chat's finished items, in order: the session's history (lazy), then what happened since
 * (messages, notices). Immutable: `with` gives a new list sharing both parts' items, so a snapshot
 * compare sees the change and nothing is copied per message.
 */
export class ChatItems implements Iterable<ChatItem> {
	readonly #history: HistoryPart;
	readonly #added: readonly ChatItem[];

	private constructor(history: HistoryPart, added: readonly ChatItem[]) {
		this.#history = history;
		this.#added = added;
	}

	/** A list of exactly these items. */
	static of(items: readonly ChatItem[]): ChatItems {
		const none = new HistoryPart(0, () => {
			throw new Error("an empty history has no items");
		});
		return new ChatItems(none, items);
	}

	/** `head`, then `count` history items made by `make` when first asked for. */
	static history(head: readonly ChatItem[], count: number, make: MakeItem): ChatItems {
		const part = new HistoryPart(head.length + count, (index) =>
			index < head.length ? head[index]! : make(index - head.length),
		);
		return new ChatItems(part, []);
	}

	/** Number of items. */
	get length(): number {
		return this.#history.count + this.#added.length;
	}

	/** The item at `index` (negative: from the end), made now if it was not yet. */
	at(index: number): ChatItem | undefined {
		const at = index < 0 ? this.length + index : index;
		if (at < 0 || at >= this.length) return undefined;
		return at < this.#history.count ? this.#history.at(at) : this.#added[at - this.#history.count];
	}

	/** This list with `item` after the last. */
	with(item: ChatItem): ChatItems {
		return new ChatItems(this.#history, [...this.#added, item]);
	}

	*[Symbol.iterator](): Iterator<ChatItem> {
		for (let i = 0; i < this.length; i++) yield this.at(i)!;
	}

	/** True when some item (made for the test if need be) passes `test`. */
	some(test: (item: ChatItem) => boolean): boolean {
		for (const item of this) if (test(item)) return true;
		return false;
	}

	/** Every item, made now: for small lists and tests (a big session's history is half a million). */
	toArray(): ChatItem[] {
		return [...this];
	}
}
