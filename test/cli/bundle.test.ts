import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const DIST = resolve(import.meta.dirname, "../../dist");

describe("the built bundle (test setup builds it)", () => {
	it("decodes Ink's inlined WebAssembly without Node's fetch (which would load undici at every start)", () => {
		const chunks = readdirSync(DIST).filter((name) => name.endsWith(".js"));
		const yoga = chunks
			.map((name) => readFileSync(join(DIST, name), "utf8"))
			.filter((text) => text.includes("instantiateStreaming"));
		expect(yoga).toHaveLength(1);
		expect(yoga[0]).not.toMatch(/"function"\s*!=\s*typeof fetch/);
	});
});
