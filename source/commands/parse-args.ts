import { parseShellWords } from "../export/shell-words.js";
import { type ArgSpec, type FlagSpec, usageLine } from "./arg-spec.js";

/** A flag as given, in the order given (the last of a group wins). */
export interface GivenFlag {
	readonly name: string;
	/** `true` for a flag without a value. */
	readonly value: string | true;
}

/** A command's arguments read through its spec. */
export interface ParsedArgs {
	/** The argument text as typed, trimmed: all a `text` spec reads. */
	readonly text: string;
	readonly subcommand: string | undefined;
	readonly positionals: readonly string[];
	readonly flags: readonly GivenFlag[];
}

/** What parsing gives: the arguments, or a one-line refusal. */
export type ParseResult =
	| { readonly ok: true; readonly args: ParsedArgs }
	| { readonly ok: false; readonly level: "error" | "warning"; readonly message: string };

/** True when `name` was given. */
export function hasFlag(args: ParsedArgs, name: string): boolean {
	return args.flags.some((flag) => flag.name === name);
}

/** The value of the last `name` given, if any. */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
	const value = args.flags.findLast((flag) => flag.name === name)?.value;
	return typeof value === "string" ? value : undefined;
}

/** The last given of `names` (a group such as `--tree | --branch | --entry`). */
export function lastFlag(args: ParsedArgs, names: readonly string[]): GivenFlag | undefined {
	return args.flags.findLast((flag) => names.includes(flag.name));
}

/** "a, b or c". */
export function orList(items: readonly string[]): string {
	return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** `-x` or `--xyz`, but not `-` alone (a common name for stdin) nor a negative number. */
export function looksLikeFlag(word: string): boolean {
	return /^-(-[^-]|[^-\d])/.test(word);
}

const fail = (message: string, level: "error" | "warning" = "error"): ParseResult => ({ ok: false, level, message });

/**
 * Reads `/command`'s argument text through its spec: shell words (quotes, backslashes), flags
 * (`--x`, `--x v`, `--x=v`, `--` ends them), positionals, a sub-command first. Unknown flags, bad
 * choices, missing values and extra words are refused with a line that names them and the usage.
 */
export function parseArgs(command: string, spec: ArgSpec, text: string): ParseResult {
	const trimmed = text.trim();
	if (spec.kind === "text")
		return { ok: true, args: { text: trimmed, subcommand: undefined, positionals: [], flags: [] } };
	let words: string[];
	try {
		words = parseShellWords(trimmed);
	} catch (error) {
		return fail(error instanceof Error ? error.message : String(error));
	}
	if (spec.kind === "words") return parseWords(command, spec, words, trimmed, undefined);
	const [first, ...rest] = words;
	if (first === undefined) {
		if (spec.optional) return { ok: true, args: { text: trimmed, subcommand: undefined, positionals: [], flags: [] } };
		return fail(`Usage: ${usageLine(command, spec)}`);
	}
	const sub = spec.subcommands.find((s) => s.name === first);
	if (!sub)
		return fail(`Unknown /${command} action: ${first} (expected ${orList(spec.subcommands.map((s) => s.name))})`);
	if (sub.args.kind !== "words")
		return { ok: true, args: { text: trimmed, subcommand: sub.name, positionals: [], flags: [] } };
	return parseWords(`${command} ${sub.name}`, sub.args, rest, trimmed, sub.name);
}

function parseWords(
	command: string,
	spec: Extract<ArgSpec, { kind: "words" }>,
	words: readonly string[],
	text: string,
	subcommand: string | undefined,
): ParseResult {
	const usage = `Usage: ${usageLine(command, spec)}`;
	const positionals: string[] = [];
	const flags: GivenFlag[] = [];
	let flagsEnded = false;
	for (let i = 0; i < words.length; i++) {
		const word = words[i]!;
		if (!flagsEnded && word === "--") {
			flagsEnded = true;
			continue;
		}
		if (flagsEnded || !looksLikeFlag(word)) {
			positionals.push(word);
			continue;
		}
		const equals = word.indexOf("=");
		const name = equals > 0 ? word.slice(0, equals) : word;
		const flag: FlagSpec | undefined = spec.flags.find((f) => f.name === name);
		if (!flag) return fail(`/${command}: unknown flag ${name}. ${usage}`);
		if (!flag.value) {
			if (equals > 0) return fail(`/${command}: ${name} takes no value. ${usage}`);
			flags.push({ name, value: true });
			continue;
		}
		const value = equals > 0 ? word.slice(equals + 1) : words[++i];
		const expected = flag.value.choices ? orList(flag.value.choices) : `<${flag.value.name}>`;
		if (value === undefined || value === "" || (equals < 0 && looksLikeFlag(value)))
			return fail(`/${command}: ${name} takes ${expected}. ${usage}`);
		if (flag.value.choices && !flag.value.choices.includes(value))
			return fail(`/${command}: ${name} takes ${expected} (got "${value}")`);
		flags.push({ name, value });
	}
	const extra = positionals.slice(spec.positionals.length);
	if (extra.length > 0) {
		if (spec.tooMany) return fail(spec.tooMany(extra), "warning");
		return fail(`/${command}: unexpected argument ${extra[0]}. ${usage}`);
	}
	const missing = spec.positionals.slice(positionals.length).find((p) => !p.optional);
	if (missing) return fail(`/${command}: missing <${missing.name}>. ${usage}`);
	return { ok: true, args: { text, subcommand, positionals, flags } };
}
