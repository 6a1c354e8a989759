import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entryKind } from "../../source/session/entry-summary.js";
import { factsOf, SKELETON_FIELDS } from "../../source/session/lazy-entry.js";
import { skimJsonLine } from "../../source/session/line-skim.js";
import type { StoredEntry } from "../../source/session/types.js";
import { FUZZ_SEED } from "../helpers/session-fuzz.js";

/** What a skeleton row is made of: equal for a skimmed line and the same line parsed whole. */
function rowOf(value: unknown) {
	const entry = value as StoredEntry;
	return {
		type: entry.type,
		id: entry.id,
		parentId: entry.parentId,
		timestamp: entry.timestamp,
		facts: factsOf(entry),
		kind: entryKind(entry),
	};
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

const skim = (line: string | Buffer) => skimJsonLine(Buffer.from(line), SKELETON_FIELDS);

const long = (unit: string) => unit.repeat(Math.ceil(600 / unit.length));

function assistantLine(text: string, extra: Record<string, unknown> = {}): string {
	return JSON.stringify({
		type: "message",
		id: "a1",
		parentId: "u1",
		timestamp: "2026-12-03T10:00:00.000Z",
		message: {
			role: "assistant",
			content: [
				{ type: "text", text },
				{ type: "toolCall", id: "c1", name: "bash", arguments: { command: long("ls ") } },
			],
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			usage: { input: 10, output: 20, cacheRead: 3, cost: { total: 0.5 } },
		},
		...extra,
	});
}

describe("skimming a long line", () => {
	it("cuts the long strings a skeleton does not read, and the row made of it is the whole line's", () => {
		const line = assistantLine(long('said "this" \\ and é\n'), { note: long("x") });
		const text = skim(line);
		expect(text).toBeDefined();
		expect(text!.length).toBeLessThan(400);
		expect(rowOf(JSON.parse(text!))).toEqual(rowOf(JSON.parse(line)));
	});

	it("keeps an assistant's blank text whole, however it is written, so it still reads as a tool call", () => {
		const blank = long(" \n\t\r\u00a0\u2028");
		const line = assistantLine(blank);
		expect(line).toContain("\\n\\t\\r");
		const text = skim(line)!;
		expect(JSON.parse(text).message.content[0].text).toBe(blank);
		expect(rowOf(JSON.parse(text)).kind).toBe("toolCall");
	});

	it("keeps the strings a row is made of, and any value under a key it cannot read plainly", () => {
		const id = long("id-");
		const model = long("model-");
		const line = JSON.stringify({
			type: "message",
			id,
			parentId: null,
			timestamp: long("t"),
			message: { role: long("r"), provider: "p", model, content: [], "t\u0065xt": 1 },
		}).replace('"text":1', `"t\\u0065xt":${JSON.stringify(long(" "))}`);
		const value = JSON.parse(skim(line)!);
		expect(value.id).toBe(id);
		expect(value.message.model).toBe(model);
		expect(value.message.text).toBe(long(" "));
		expect(rowOf(value)).toEqual(rowOf(JSON.parse(line)));
	});

	it("vouches for no line JSON.parse refuses: a raw control character, a bad escape, a torn string", () => {
		const line = assistantLine(long("output "));
		const at = line.indexOf("output");
		expect(skim(`${line.slice(0, at)}\t${line.slice(at)}`)).toBeUndefined();
		expect(skim(`${line.slice(0, at)}\\x${line.slice(at)}`)).toBeUndefined();
		expect(skim(`${line.slice(0, at)}\\u12g4${line.slice(at)}`)).toBeUndefined();
		expect(skim(line.slice(0, at + 300))).toBeUndefined();
	});

	it("takes invalid UTF-8 in a string as JSON.parse of the decoded line does (it decodes to U+FFFD)", () => {
		const line = Buffer.from(assistantLine(long("output ")));
		const closing = line.indexOf('"', line.indexOf("output ") + 1);
		const torn = Buffer.concat([line.subarray(0, closing), Buffer.from([0xe2, 0x82]), line.subarray(closing)]);
		expect(parse(torn.toString()).ok).toBe(true);
		expect(rowOf(JSON.parse(skim(torn)!))).toEqual(rowOf(JSON.parse(torn.toString())));
	});

	it("on damaged lines, accepts only what JSON.parse accepts, and gives the same row", () => {
		const damage = fc.record({
			at: fc.nat(),
			bytes: fc.array(
				fc.oneof(
					fc.integer({ min: 0, max: 0x1f }),
					fc.constantFrom(0x22, 0x5c, 0x75, 0x7b, 0x7d, 0x3a, 0x2c, 0x20, 0x6e, 0x30),
					fc.integer({ min: 0x80, max: 0xff }),
				),
				{ minLength: 0, maxLength: 3 },
			),
			cut: fc.nat({ max: 2 }),
		});
		const lines = [
			assistantLine(long('a "quoted" \\ line é ')),
			assistantLine(long("\\n")),
			JSON.stringify({
				type: "message",
				id: "t",
				parentId: "a",
				timestamp: "x",
				message: { role: "toolResult", content: [{ type: "text", text: long("out\u0001\u00e9") }] },
			}),
		];
		let accepted = 0;
		let cut = 0;
		fc.assert(
			fc.property(fc.constantFrom(...lines), damage, (line, { at, bytes, cut: removed }) => {
				const original = Buffer.from(line);
				const position = at % original.length;
				const damaged = Buffer.concat([
					original.subarray(0, position),
					Buffer.from(bytes),
					original.subarray(Math.min(original.length, position + removed)),
				]);
				const whole = parse(damaged.toString());
				const text = skim(damaged);
				const skimmed = text === undefined ? { ok: false as const } : parse(text);
				if (!skimmed.ok) return;
				accepted++;
				if (text!.length < damaged.length / 2) cut++;
				expect(whole.ok).toBe(true);
				if (whole.ok) expect(rowOf(skimmed.value)).toEqual(rowOf(whole.value));
			}),
			{ seed: FUZZ_SEED, numRuns: 3000 },
		);
		// The damage left most lines readable, and those were skimmed, not merely passed through.
		expect(accepted).toBeGreaterThan(500);
		expect(cut).toBeGreaterThan(accepted / 2);
	});

	it("gives the row of the whole parse for every line of the recorded sessions (this agent's and others')", () => {
		let skimmed = 0;
		let cut = 0;
		for (const file of fixtureFiles()) {
			for (const line of readFileSync(file).toString("utf8").split("\n")) {
				if (line.length === 0) continue;
				const text = skim(line);
				if (!parse(line).ok) {
					expect(text === undefined || !parse(text).ok).toBe(true);
					continue;
				}
				expect(text, `${file}: a line JSON.parse takes was not skimmed`).toBeDefined();
				skimmed++;
				if (text!.length < line.length) cut++;
				expect(rowOf(JSON.parse(text!))).toEqual(rowOf(JSON.parse(line)));
			}
		}
		expect(skimmed).toBeGreaterThan(1000);
		expect(cut).toBeGreaterThan(100);
	});
});

function fixtureFiles(): string[] {
	const root = join(import.meta.dirname, "../fixtures");
	return readdirSync(root, { recursive: true, encoding: "utf8" })
		.filter((name) => name.endsWith(".jsonl"))
		.map((name) => join(root, name));
}
