/** A flag as meow declares it (only what the check needs). */
export interface DeclaredFlag {
	readonly type: string;
	readonly shortFlag?: string;
}

const BUILT_IN = ["help", "version"];

const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The flags on the command line that are not declared, as typed (`--bogus`, `-x`). meow's own check
 * prints "Unknown flag" and the names on separate lines and exits; parsing with unknown flags allowed
 * and checking here gives one line like the other CLI errors.
 */
export function unknownFlags(
	declared: Readonly<Record<string, DeclaredFlag>>,
	parsed: Readonly<Record<string, unknown>>,
): string[] {
	const known = new Set(BUILT_IN);
	for (const [name, flag] of Object.entries(declared)) {
		known.add(name);
		if (flag.shortFlag) known.add(flag.shortFlag);
	}
	return Object.entries(parsed)
		.filter(([name]) => !known.has(name))
		.map(([name, value]) => {
			if (name.length === 1) return `-${name}`;
			// The parser turns `--no-thing` into `thing: false`.
			return value === false ? `--no-${kebab(name)}` : `--${kebab(name)}`;
		});
}

/** `Unknown flag: --bogus. Run xcsh --help for usage.` (one line, like an unknown command). */
export function unknownFlagsMessage(flags: readonly string[]): string {
	return `Unknown flag${flags.length === 1 ? "" : "s"}: ${flags.join(", ")}. Run xcsh --help for usage.`;
}
