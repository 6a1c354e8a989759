import { describe, expect, it } from "vitest";
import { words } from "../../source/commands/arg-spec.js";
import { completeArgs } from "../../source/commands/complete-args.js";
import { EXPORT_SCOPE_FLAGS } from "../../source/commands/scope-flags.js";
import type { CommandContext } from "../../source/commands/types.js";

const SPEC = words(
	[{ name: "path", optional: true, kind: "path" }],
	[
		...EXPORT_SCOPE_FLAGS,
		{ name: "--format", value: { name: "format", choices: ["html", "md", "json"] }, description: "" },
		{ name: "--force", description: "" },
		{ name: "--copy", hidden: true, description: "" },
	],
);
// Completion of these specs reads nothing from the app.
const context = {} as CommandContext;

describe("argument completion from the spec", () => {
	it("offers the flags after a dash, without hidden ones, used ones or the rest of a used group", () => {
		expect(completeArgs(SPEC, "--", context)).toEqual({
			insert: "",
			candidates: ["--tree", "--branch", "--entry", "--format", "--force"],
		});
		expect(completeArgs(SPEC, "--fo", context)).toEqual({ insert: "r", candidates: ["--format", "--force"] });
		expect(completeArgs(SPEC, "--force --", context)).toEqual({
			insert: "",
			candidates: ["--tree", "--branch", "--entry", "--format"],
		});
		expect(completeArgs(SPEC, "--branch --", context)).toEqual({ insert: "for", candidates: ["--format", "--force"] });
	});

	it("offers a flag's choices after it; a path positional goes to file completion; after the path, flags", () => {
		expect(completeArgs(SPEC, "--format ", context)).toEqual({ insert: "", candidates: ["html", "md", "json"] });
		expect(completeArgs(SPEC, "--format j", context)).toEqual({ insert: "son ", candidates: [] });
		expect(completeArgs(SPEC, "--entry ", context)).toEqual({ insert: "", candidates: [] });
		expect(completeArgs(SPEC, "", context)).toBeUndefined();
		expect(completeArgs(SPEC, "out/pa", context)).toBeUndefined();
		expect(completeArgs(SPEC, "out.html --format md ", context)).toEqual({
			insert: "--",
			candidates: ["--tree", "--branch", "--entry", "--force"],
		});
		expect(completeArgs(SPEC, "-- ", context)).toBeUndefined();
	});
});
