import { parseShellWords } from "../export/shell-words.js";
import type { ArgSpec, FlagSpec } from "./arg-spec.js";
import type { CommandContext } from "./command-context.js";
import { looksLikeFlag } from "./parse-args.js";

/** Tab's answer for an argument: text to insert at the cursor and, when several fit, the choices. */
export interface ArgCompletion {
	readonly insert: string;
	readonly candidates: readonly string[];
}

/** What Tab completes at the cursor: nothing from the spec (`path`: a file name), or these values. */
export type ArgCompletionSource =
	| { readonly kind: "path" }
	| { readonly kind: "values"; readonly values: readonly string[] };

const PATH: ArgCompletionSource = { kind: "path" };
const NONE: ArgCompletionSource = { kind: "values", values: [] };

function values(list: readonly string[]): ArgCompletionSource {
	return { kind: "values", values: list };
}

function flagsOffered(flags: readonly FlagSpec[], given: readonly string[]): string[] {
	// A flag already given is not offered again, nor the other members of its group.
	const used = flags.filter((f) => given.includes(f.name));
	return flags
		.filter((f) => !f.hidden && !used.some((u) => u.name === f.name || (u.group !== undefined && u.group === f.group)))
		.map((f) => f.name);
}

/**
 * What the word being typed can be, from the spec and the complete words before it: a sub-command,
 * a flag (when it starts with `-`), a flag's value, or the next positional.
 */
export function completionSource(
	spec: ArgSpec,
	before: readonly string[],
	current: string,
	context: CommandContext,
): ArgCompletionSource {
	switch (spec.kind) {
		case "text":
			return PATH;
		case "subcommands": {
			const [first, ...rest] = before;
			if (first === undefined) return values(spec.subcommands.map((s) => s.name));
			const sub = spec.subcommands.find((s) => s.name === first);
			return sub ? completionSource(sub.args, rest, current, context) : NONE;
		}
		case "words": {
			const positionals: string[] = [];
			const given: string[] = [];
			let flagsEnded = false;
			for (let i = 0; i < before.length; i++) {
				const word = before[i]!;
				if (!flagsEnded && word === "--") flagsEnded = true;
				else if (flagsEnded || !looksLikeFlag(word)) positionals.push(word);
				else {
					const flag = spec.flags.find((f) => f.name === word);
					given.push(word);
					if (flag?.value) {
						// The word after a value flag is its value; at the cursor, offer the choices.
						if (i === before.length - 1) return values(flag.value.choices ?? []);
						i++;
					}
				}
			}
			if (!flagsEnded && current.startsWith("-")) return values(flagsOffered(spec.flags, given));
			const positional = spec.positionals[positionals.length];
			if (!positional) return values(flagsEnded ? [] : flagsOffered(spec.flags, given));
			if (positional.kind === "path") return PATH;
			return values(positional.choices ?? positional.values?.(context) ?? []);
		}
	}
}

function commonPrefix(words: readonly string[]): string {
	let prefix = words[0] ?? "";
	for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
	return prefix;
}

/**
 * Completes the argument being typed in `argsBeforeCursor` (the text after `/command `, up to the
 * cursor). `undefined` when the spec leaves it to file-name completion or the text cannot be read
 * (an open quote). One match completes with a trailing space; several complete their common prefix
 * and are listed.
 */
export function completeArgs(
	spec: ArgSpec,
	argsBeforeCursor: string,
	context: CommandContext,
): ArgCompletion | undefined {
	const current = /\S*$/.exec(argsBeforeCursor)?.[0] ?? "";
	// A quoted or escaped word is a path or free text being typed: file completion's, not ours.
	if (/["'\\]/.test(current)) return undefined;
	let before: string[];
	try {
		before = parseShellWords(argsBeforeCursor.slice(0, argsBeforeCursor.length - current.length));
	} catch {
		return undefined;
	}
	const source = completionSource(spec, before, current, context);
	if (source.kind === "path") return undefined;
	const matches = source.values.filter((value) => value.startsWith(current));
	const [only] = matches;
	if (only === undefined) return { insert: "", candidates: [] };
	if (matches.length === 1) return { insert: `${only.slice(current.length)} `, candidates: [] };
	return { insert: commonPrefix(matches).slice(current.length), candidates: matches };
}
