import { describe, expect, it } from "vitest";
import { argsUsage } from "../../source/commands/arg-spec.js";
import { parseArgs } from "../../source/commands/parse-args.js";
import { findCommand } from "../../source/commands/registry.js";
import type { CommandContext } from "../../source/commands/types.js";

describe("/search", () => {
	it("/search [query] opens the search screen with the query", async () => {
		const search = findCommand("search")!;
		expect(argsUsage(search.spec)).toBe("[query]");
		expect(search.description).toBe(
			"Search the messages of past sessions (role:, since:, until: filter; Tab for all projects)",
		);
		const run = (text: string) => {
			const parsed = parseArgs("search", search.spec, text);
			if (!parsed.ok) throw new Error(parsed.message);
			return search.run({} as CommandContext, parsed.args);
		};
		expect(await run("  kafka lag ")).toEqual({ kind: "search", query: "kafka lag" });
		expect(await run("")).toEqual({ kind: "search", query: "" });
		// The query has its own syntax: quotes and dashes reach the search as typed.
		expect(await run(`"exact phrase" role:user --x`)).toEqual({
			kind: "search",
			query: `"exact phrase" role:user --x`,
		});
	});
});
