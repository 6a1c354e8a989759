import { describe, expect, it } from "vitest";
import { describeChanges, progressReporter } from "../../source/index/indexed-sessions.js";

describe("progressReporter", () => {
	it("stays quiet for small refreshes, throttles to 100 ms, and always reports the end", () => {
		let clock = 1000;
		const seen: string[] = [];
		const report = progressReporter(
			(text) => seen.push(text),
			() => clock,
		);
		report({ done: 1, total: 10, bytesDone: 1, bytesTotal: 10 });
		expect(seen).toEqual([]);
		report({ done: 1, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		clock += 50;
		report({ done: 2, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		clock += 60;
		report({ done: 1234, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		report({ done: 12_000, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		expect(seen).toEqual(["1 of 12,000", "1,234 of 12,000", "12,000 of 12,000"]);
	});
});

describe("describeChanges", () => {
	it("names only what changed", () => {
		expect(describeChanges({ added: 0, updated: 0, removed: 0, unchanged: 9 })).toBeUndefined();
		expect(describeChanges({ added: 3, updated: 1, removed: 2, unchanged: 0 })).toBe("3 new, 1 updated, 2 removed");
		expect(describeChanges({ added: 0, updated: 1, removed: 0, unchanged: 0 })).toBe("1 updated");
	});
});
