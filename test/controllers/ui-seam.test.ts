import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

interface Import {
	/** The importing file, relative to the repository root. */
	readonly file: string;
	/** The imported module, relative to the repository root (or the bare specifier). */
	readonly target: string;
	readonly typeOnly: boolean;
	/** The names a value import binds (empty for type-only and dynamic imports). */
	readonly names: readonly string[];
}

function sourceFiles(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
		.filter((name) => /\.tsx?$/.test(name))
		.map((name) => join(dir, name));
}

function importsOf(file: string): Import[] {
	const text = readFileSync(join(ROOT, file), "utf8");
	const found: Import[] = [];
	const at = (specifier: string) =>
		specifier.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier;
	for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+"([^"]+)"/gms)) {
		const typeOnly = m[1] !== undefined;
		const names = typeOnly
			? []
			: (m[2] ?? "")
					.replace(/[{}]/g, "")
					.split(",")
					.map((name) => name.trim())
					.filter((name) => name !== "" && !name.startsWith("type "));
		found.push({ file, target: at(m[3] ?? ""), typeOnly: typeOnly || names.length === 0, names });
	}
	for (const m of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) {
		found.push({ file, target: at(m[1] ?? ""), typeOnly: false, names: ["(dynamic)"] });
	}
	return found;
}

const componentImports = () => sourceFiles("components").flatMap(importsOf);

/** Controllers' modules a component may take values from: pure functions, no state, no session. */
const PURE_CONTROLLER_VALUES: Record<string, readonly string[] | "any"> = {
	"controllers/keymap.js": "any",
	"controllers/key-reader.js": "any",
	// The window of rows for a scroll position: what the chat view draws.
	"controllers/transcript-viewport.js": ["viewportWindow"],
};

// The type-level half (no session reachable from what components get) is ui-seam-types.ts, checked by typecheck.
describe("the UI seam", () => {
	it("components build no controller: values come from controllers/ only for key decoding and the viewport window", () => {
		const offending = componentImports()
			.filter((i) => i.target.startsWith("controllers/") && !i.typeOnly)
			.filter((i) => {
				const allowed = PURE_CONTROLLER_VALUES[i.target];
				return allowed !== "any" && !i.names.every((name) => allowed?.includes(name));
			})
			.map((i) => `${i.file} → ${i.target} {${i.names.join(", ")}}`);
		expect(offending).toEqual([]);
	});

	it("components import nothing from source/session/ but its plain entry types and how entries are summarised", () => {
		const allowed = new Set([
			"source/session/types.js",
			"source/session/entry-summary.js",
			"source/session/summary-tree.js",
		]);
		const offending = componentImports()
			.filter((i) => i.target.startsWith("source/session/") && !allowed.has(i.target))
			.map((i) => `${i.file} → ${i.target}`);
		expect(offending).toEqual([]);
	});

	it("controllers do no file I/O of their own (SessionManager and source/ modules do)", () => {
		const fs = sourceFiles("controllers")
			.flatMap(importsOf)
			.filter((i) => /^(node:)?fs(\/promises)?$/.test(i.target))
			.map((i) => `${i.file} → ${i.target}`);
		expect(fs).toEqual([]);
	});
});
