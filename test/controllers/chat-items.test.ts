import { describe, expect, it } from "vitest";
import type { ChatItem } from "../../controllers/chat-controller.js";
import { ChatItems } from "../../controllers/chat-items.js";

const notice = (id: string): ChatItem => ({ kind: "notice", id, level: "info", text: id });

describe("ChatItems", () => {
	it("makes a history item only when it is asked for, once", () => {
		const made: number[] = [];
		const items = ChatItems.history([notice("welcome")], 500_000, (index) => {
			made.push(index);
			return notice(`h${index}`);
		});
		expect(items.length).toBe(500_001);
		expect(made).toEqual([]);
		expect(items.at(-1)?.id).toBe("h499999");
		expect(items.at(0)?.id).toBe("welcome");
		expect(items.at(1)?.id).toBe("h0");
		const again = items.at(-1);
		expect(items.at(-1)).toBe(again);
		expect(made).toEqual([499_999, 0]);
		expect(items.at(500_001)).toBeUndefined();
		expect(items.at(-500_002)).toBeUndefined();
	});

	it("appends without changing the list it came from, sharing the items made", () => {
		const items = ChatItems.history([], 2, (index) => notice(`h${index}`));
		const first = items.at(0);
		const longer = items.with(notice("added"));
		expect(items.length).toBe(2);
		expect(longer.length).toBe(3);
		expect(longer.at(0)).toBe(first);
		expect(longer.toArray().map((item) => item.id)).toEqual(["h0", "h1", "added"]);
		expect(longer.some((item) => item.id === "added")).toBe(true);
		expect(items.some((item) => item.id === "added")).toBe(false);
		expect(
			ChatItems.of([notice("a")])
				.toArray()
				.map((item) => item.id),
		).toEqual(["a"]);
	});
});
