import type { ExportScope } from "../export/export-scope.js";
import type { FlagSpec } from "./arg-spec.js";
import { lastFlag, type ParsedArgs } from "./parse-args.js";

const TREE: FlagSpec = { name: "--tree", group: "scope", description: "every branch of the session" };
const BRANCH: FlagSpec = { name: "--branch", group: "scope", description: "the active branch only" };
const ENTRY: FlagSpec = {
	name: "--entry",
	group: "scope",
	value: { name: "id" },
	description: "the path from the root to one entry (ids in /tree)",
};

/** /export's scope flags: the whole tree by default. */
export const EXPORT_SCOPE_FLAGS: readonly FlagSpec[] = [TREE, BRANCH, ENTRY];
/** /share's: the active branch by default (what the person is looking at, not abandoned attempts). */
export const SHARE_SCOPE_FLAGS: readonly FlagSpec[] = [TREE, { ...BRANCH, hidden: true }, ENTRY];

/** The scope the last scope flag names, or `fallback`. */
export function scopeOf(args: ParsedArgs, fallback: ExportScope): ExportScope {
	const flag = lastFlag(args, ["--tree", "--branch", "--entry"]);
	if (flag?.name === "--tree") return { kind: "tree" };
	if (flag?.name === "--branch") return { kind: "branch" };
	if (flag?.name === "--entry" && typeof flag.value === "string") return { kind: "entry", entryId: flag.value };
	return fallback;
}
