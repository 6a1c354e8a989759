import { describe, expect, it } from "vitest";
import { parseJsonlLenient, serializeEntry } from "../../source/session/jsonl.js";
import type { FileEntry } from "../../source/session/types.js";

describe("parseJsonlLenient", () => {
	it("skips blank lines and reports unparseable or non-object lines with 1-based numbers", () => {
		const result = parseJsonlLenient('{"a":1}\n\n{broken\n42\n[1]\n{"b":2}\n');
		expect(result.values).toEqual([{ a: 1 }, { b: 2 }]);
		expect(result.errors.map((e) => e.line)).toEqual([3, 4, 5]);
		expect(result.errors[1]!.message).toBe("not a JSON object");
		expect(result.missingFinalNewline).toBe(false);
	});

	it("flags a missing final newline (a possibly torn tail)", () => {
		const result = parseJsonlLenient('{"a":1}\n{"b":');
		expect(result.values).toEqual([{ a: 1 }]);
		expect(result.errors).toHaveLength(1);
		expect(result.errors[0]!.line).toBe(2);
		expect(result.missingFinalNewline).toBe(true);
		expect(parseJsonlLenient("").missingFinalNewline).toBe(false);
	});

	it("tolerates CRLF line endings", () => {
		expect(parseJsonlLenient('{"a":1}\r\n{"b":2}\r\n').values).toEqual([{ a: 1 }, { b: 2 }]);
	});
});

describe("serializeEntry", () => {
	it("puts type, id, parentId, timestamp first whatever order the object has", () => {
		const entry = { message: { role: "user" }, timestamp: "t", parentId: null, id: "abcd1234", type: "message" };
		expect(Object.keys(JSON.parse(serializeEntry(entry as unknown as FileEntry)))).toEqual([
			"type",
			"id",
			"parentId",
			"timestamp",
			"message",
		]);
	});

	it("orders header keys type, version, id, timestamp, cwd and keeps extra v1 fields", () => {
		const header = { cwd: "/p", modelId: "m", id: "s", type: "session", timestamp: "t", version: 3 };
		expect(Object.keys(JSON.parse(serializeEntry(header as FileEntry)))).toEqual([
			"type",
			"version",
			"id",
			"timestamp",
			"cwd",
			"modelId",
		]);
	});
});
