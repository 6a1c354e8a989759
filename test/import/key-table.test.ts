import { describe, expect, it } from "vitest";
import { KeyMap, KeyTable, KeyToKey } from "../../source/import/key-table.js";

// The compact key tables a big import keeps instead of Maps must answer as the Maps did.

describe("key tables", () => {
	it("number keys in the order added and find each again, wide and empty keys too, through growth", () => {
		const table = new KeyTable();
		const keys = [
			"",
			"é",
			"日本",
			"a#1",
			...Array.from({ length: 50_000 }, (_, i) => `${i.toString(36)}-${crypto.randomUUID()}`),
		];
		keys.push("ü🙂", "line:7", "x".repeat(5000), `${"y".repeat(4096)}`);
		keys.forEach((key, i) => {
			expect(table.add(key)).toBe(i);
		});
		expect(table.size).toBe(keys.length);
		for (const [i, key] of keys.entries()) {
			expect(table.indexOf(key)).toBe(i);
			expect(table.add(key)).toBe(i);
			expect(table.keyAt(i)).toBe(key);
		}
		expect(table.indexOf("absent")).toBe(-1);
		expect(table.indexOf("日本語")).toBe(-1);
	});

	it("map keys to numbers and to keys, the last set winning, as a Map does", () => {
		const numbers = new KeyMap();
		const strings = new KeyToKey();
		const expectedNumbers = new Map<string, number>();
		const expectedStrings = new Map<string, string>();
		for (let i = 0; i < 20_000; i++) {
			const key = `k${i % 7000}${i % 3 === 0 ? "ß" : ""}`;
			numbers.set(key, i);
			expectedNumbers.set(key, i);
			strings.set(key, `v${i % 11}`);
			expectedStrings.set(key, `v${i % 11}`);
		}
		for (const [key, value] of expectedNumbers) expect(numbers.get(key)).toBe(value);
		for (const [key, value] of expectedStrings) expect(strings.get(key)).toBe(value);
		expect(numbers.get("nope")).toBeUndefined();
		expect(strings.has("nope")).toBe(false);
	});
});
