import { type LogSink, setLogSink } from "../logger.js";
import { processIo } from "./cli-io.js";
import type { ImportFlags } from "./import-command.js";

/** `xcsh import` with only its own flags, read without the general CLI parser. */
export interface PlainImport {
	readonly args: string[];
	readonly flags: ImportFlags;
}

const BOOLEAN_FLAGS = { "--dry-run": "dryRun", "--json": "json", "--scan": "scan" } as const;
const STRING_FLAGS = { "--from": "from", "--cwd": "cwd", "--auto": "auto" } as const;

/**
 * The invocation when it is `xcsh import` followed only by paths and its own flags, each at most
 * once, in their plain spelling; undefined for anything else (help, unknown or repeated flags, a
 * path that starts with "-"), which goes through the general CLI and its messages as before.
 * Loading that parser (meow) and the help costs an import a tenth of a second.
 */
export function plainImport(argv: readonly string[]): PlainImport | undefined {
	if (argv[0] !== "import") return undefined;
	const args: string[] = [];
	const flags: ImportFlags = { dryRun: false, json: false, scan: false };
	const seen = new Set<string>();
	for (let i = 1; i < argv.length; i++) {
		const arg = argv[i]!;
		if (!arg.startsWith("-")) {
			args.push(arg);
			continue;
		}
		const eq = arg.indexOf("=");
		const name = eq < 0 ? arg : arg.slice(0, eq);
		if (seen.has(name)) return undefined;
		seen.add(name);
		if (Object.hasOwn(BOOLEAN_FLAGS, name) && eq < 0) {
			flags[BOOLEAN_FLAGS[name as keyof typeof BOOLEAN_FLAGS]] = true;
			continue;
		}
		if (!Object.hasOwn(STRING_FLAGS, name)) return undefined;
		const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
		if (value === undefined || value === "" || value.startsWith("-")) return undefined;
		flags[STRING_FLAGS[name as keyof typeof STRING_FLAGS]] = value;
	}
	return { args, flags };
}

// CLI paths print diagnostics on stderr.
const stderrSink: LogSink = (level, message) => process.stderr.write(`xcsh: ${level}: ${message}\n`);

/** Runs a plain `xcsh import` as the general CLI would (same io, same notices); returns the exit code. */
export async function runPlainImport(invocation: PlainImport): Promise<number> {
	const { runImportCommand } = await import("./import-command.js");
	const io = processIo();
	setLogSink(stderrSink);
	return runImportCommand(invocation.args, invocation.flags, io);
}
