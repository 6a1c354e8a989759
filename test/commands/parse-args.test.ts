import { describe, expect, it } from "vitest";
import { type ArgSpec, argsUsage, usageLine, words } from "../../source/commands/arg-spec.js";
import { flagValue, hasFlag, looksLikeFlag, orList, parseArgs } from "../../source/commands/parse-args.js";
import { EXPORT_SCOPE_FLAGS, SHARE_SCOPE_FLAGS, scopeOf } from "../../source/commands/scope-flags.js";

const SPEC = words(
	[{ name: "path", optional: true, kind: "path" }],
	[
		...EXPORT_SCOPE_FLAGS,
		{ name: "--format", value: { name: "format", choices: ["html", "md"] }, description: "format" },
		{ name: "--force", description: "replace" },
		{ name: "--old", hidden: true, description: "" },
	],
);

function parsed(text: string, spec: ArgSpec = SPEC) {
	const result = parseArgs("cmd", spec, text);
	if (!result.ok) throw new Error(result.message);
	return result.args;
}

describe("the argument spec and its one parser", () => {
	it("prints the usage: optional words in brackets, groups with |, choices with |, hidden flags left out", () => {
		expect(usageLine("cmd", SPEC)).toBe("/cmd [path] [--tree | --branch | --entry <id>] [--format html|md] [--force]");
		expect(argsUsage(words([], SHARE_SCOPE_FLAGS))).toBe("[--tree | --entry <id>]");
		expect(argsUsage({ kind: "text", name: "name", optional: false })).toBe("<name>");
		expect(argsUsage(words([{ name: "id", optional: false, kind: "word" }]))).toBe("<id>");
		expect(usageLine("new", words([]))).toBe("/new");
	});

	it("reads positionals, flags, values, --x=v, quotes, and -- before a dashed name", () => {
		const args = parsed(`"my file.html" --format md --force`);
		expect(args.positionals).toEqual(["my file.html"]);
		expect(flagValue(args, "--format")).toBe("md");
		expect(hasFlag(args, "--force")).toBe(true);
		expect(hasFlag(args, "--tree")).toBe(false);
		expect(flagValue(parsed("--format=html"), "--format")).toBe("html");
		expect(parsed("-- --odd.html").positionals).toEqual(["--odd.html"]);
		expect(parsed("- ").positionals).toEqual(["-"]);
		expect(hasFlag(parsed("--old"), "--old")).toBe(true);
	});

	it("reads --tree, --branch and --entry <id> into a scope; the last one given wins", () => {
		expect(scopeOf(parsed("out.html --branch"), { kind: "tree" })).toEqual({ kind: "branch" });
		expect(scopeOf(parsed("--entry abcd1234"), { kind: "branch" })).toEqual({ kind: "entry", entryId: "abcd1234" });
		expect(scopeOf(parsed("--entry abcd1234 --tree"), { kind: "branch" })).toEqual({ kind: "tree" });
		expect(scopeOf(parsed(""), { kind: "branch" })).toEqual({ kind: "branch" });
	});

	it("refuses unknown flags, missing values, bad choices, extra words and open quotes in one line", () => {
		const usage = "Usage: /cmd [path] [--tree | --branch | --entry <id>] [--format html|md] [--force]";
		const refused = (text: string, spec: ArgSpec = SPEC) => parseArgs("cmd", spec, text);
		expect(refused("--nope")).toEqual({ ok: false, level: "error", message: `/cmd: unknown flag --nope. ${usage}` });
		expect(refused("-x")).toEqual({ ok: false, level: "error", message: `/cmd: unknown flag -x. ${usage}` });
		expect(refused("--entry")).toEqual({ ok: false, level: "error", message: `/cmd: --entry takes <id>. ${usage}` });
		expect(refused("--entry --force")).toMatchObject({ message: `/cmd: --entry takes <id>. ${usage}` });
		expect(refused("--format pdf")).toEqual({
			ok: false,
			level: "error",
			message: '/cmd: --format takes html or md (got "pdf")',
		});
		expect(refused("--force=1")).toMatchObject({ message: `/cmd: --force takes no value. ${usage}` });
		expect(refused("a b")).toEqual({ ok: false, level: "error", message: `/cmd: unexpected argument b. ${usage}` });
		expect(
			refused(
				"a b",
				words([], [], (extra) => `one only (got ${extra.join(" ")})`),
			),
		).toEqual({
			ok: false,
			level: "warning",
			message: "one only (got a b)",
		});
		expect(refused('"open')).toEqual({ ok: false, level: "error", message: 'Unterminated quote in: "open' });
	});

	it("reads a sub-command first, then its own words; text specs take the line as typed", () => {
		const spec: ArgSpec = {
			kind: "subcommands",
			optional: false,
			subcommands: [{ name: "revoke", description: "", args: words([{ name: "id", optional: false, kind: "word" }]) }],
		};
		expect(parsed("revoke abc", spec)).toMatchObject({ subcommand: "revoke", positionals: ["abc"] });
		expect(parseArgs("shares", spec, "")).toEqual({ ok: false, level: "error", message: "Usage: /shares revoke <id>" });
		expect(parseArgs("shares", spec, "list")).toMatchObject({
			message: "Unknown /shares action: list (expected revoke)",
		});
		expect(parseArgs("shares", spec, "revoke")).toMatchObject({
			message: "/shares revoke: missing <id>. Usage: /shares revoke <id>",
		});
		expect(parsed(` it's "odd" --x `, { kind: "text", name: "t", optional: true }).text).toBe(`it's "odd" --x`);
	});

	it("orList and looksLikeFlag", () => {
		expect(orList(["a"])).toBe("a");
		expect(orList(["a", "b", "c"])).toBe("a, b or c");
		expect(looksLikeFlag("--x")).toBe(true);
		expect(looksLikeFlag("-x")).toBe(true);
		expect(looksLikeFlag("-")).toBe(false);
		expect(looksLikeFlag("--")).toBe(false);
		expect(looksLikeFlag("-5")).toBe(false);
		expect(looksLikeFlag("a-b")).toBe(false);
	});
});
