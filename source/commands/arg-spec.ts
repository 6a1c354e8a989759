import type { CommandContext } from "./command-context.js";

/** A flag such as `--force` or `--format <md|json|html>`. */
export interface FlagSpec {
	/** With its dashes: `--format`. */
	readonly name: string;
	/** One line for `/help <command>`. */
	readonly description: string;
	/** Set when the flag takes a value (`--entry <id>`, `--format html|md|json`). */
	readonly value?: {
		/** Shown in the usage when there are no choices: `<id>`. */
		readonly name: string;
		/** The accepted values: the parser refuses others; shown in the usage and offered on Tab. */
		readonly choices?: readonly string[];
	};
	/** Flags of one group exclude each other and print as `[--a | --b]`. */
	readonly group?: string;
	/** Accepted but neither in the usage nor on Tab (kept so an old spelling gets a helpful answer). */
	readonly hidden?: boolean;
}

/** A word in a fixed position. */
export interface PositionalSpec {
	readonly name: string;
	readonly optional: boolean;
	/** `path`: Tab completes a file name; `word`: Tab offers `choices` or `values`. */
	readonly kind: "path" | "word";
	/**
	 * The fixed values: shown in the usage as `a|b|c` and offered on Tab. The command checks the
	 * value itself (a thinking level is case-insensitive).
	 */
	readonly choices?: readonly string[];
	/** Values read from the app when Tab asks (the models, the commands); not in the usage. */
	readonly values?: (context: CommandContext) => readonly string[];
}

/** A sub-command: `/session save`, `/shares revoke <id>`. */
export interface SubcommandSpec {
	readonly name: string;
	readonly description: string;
	readonly args: ArgSpec;
}

/** How a command reads its arguments; the one parser (`parseArgs`) and completer follow it. */
export type ArgSpec =
	/** Words and flags, split like a shell does. */
	| {
			readonly kind: "words";
			readonly positionals: readonly PositionalSpec[];
			readonly flags: readonly FlagSpec[];
			/** What more positionals than declared say (a warning); a generic error otherwise. */
			readonly tooMany?: (extra: readonly string[]) => string;
	  }
	/** The rest of the line as one free text, quotes and dashes included (`/name`, `/compact`). */
	| { readonly kind: "text"; readonly name: string; readonly optional: boolean }
	/** A sub-command first, optional when the command does something on its own. */
	| { readonly kind: "subcommands"; readonly subcommands: readonly SubcommandSpec[]; readonly optional: boolean };

/** A command that takes nothing. */
export const NO_ARGS: ArgSpec = { kind: "words", positionals: [], flags: [] };

/** A spec of words and flags. */
export function words(
	positionals: readonly PositionalSpec[],
	flags: readonly FlagSpec[] = [],
	tooMany?: (extra: readonly string[]) => string,
): ArgSpec {
	return { kind: "words", positionals, flags, ...(tooMany ? { tooMany } : {}) };
}

function bracket(text: string, optional: boolean): string {
	return optional ? `[${text}]` : text;
}

function flagUsage(flag: FlagSpec): string {
	if (!flag.value) return flag.name;
	const value = flag.value.choices ? flag.value.choices.join("|") : `<${flag.value.name}>`;
	return `${flag.name} ${value}`;
}

function positionalUsage(positional: PositionalSpec): string {
	const text = positional.choices ? positional.choices.join("|") : positional.name;
	return positional.optional ? `[${text}]` : positional.choices ? text : `<${text}>`;
}

/** The argument part of a usage line: `[path] [--tree | --entry <id>] [--force]`. */
export function argsUsage(spec: ArgSpec): string {
	switch (spec.kind) {
		case "text":
			return spec.optional ? `[${spec.name}]` : `<${spec.name}>`;
		case "subcommands": {
			const subs = spec.subcommands.map((sub) => [sub.name, argsUsage(sub.args)].filter(Boolean).join(" "));
			return bracket(subs.join(" | "), spec.optional);
		}
		case "words": {
			const parts = spec.positionals.map(positionalUsage);
			const shown = spec.flags.filter((flag) => !flag.hidden);
			for (let i = 0; i < shown.length; i++) {
				const flag = shown[i]!;
				if (flag.group !== undefined && flag.group === shown[i - 1]?.group) continue;
				const group = flag.group === undefined ? [flag] : shown.filter((f) => f.group === flag.group);
				parts.push(`[${group.map(flagUsage).join(" | ")}]`);
			}
			return parts.join(" ");
		}
	}
}

/** `/name args`, the usage line a refusal and `/help <command>` print. */
export function usageLine(name: string, spec: ArgSpec): string {
	return [`/${name}`, argsUsage(spec)].filter(Boolean).join(" ");
}

/** The flags of a spec with their descriptions, for `/help <command>`. */
export function flagHelp(spec: ArgSpec): string[] {
	switch (spec.kind) {
		case "text":
			return [];
		case "subcommands":
			return spec.subcommands.flatMap((sub) => [
				`  ${[sub.name, argsUsage(sub.args)].filter(Boolean).join(" ")}  ${sub.description}`,
				...flagHelp(sub.args).map((line) => `  ${line}`),
			]);
		case "words":
			return spec.flags.filter((flag) => !flag.hidden).map((flag) => `  ${flagUsage(flag)}  ${flag.description}`);
	}
}
