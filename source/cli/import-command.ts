import { resolve } from "node:path";
import { readAutoSetting, writeAutoSetting } from "../import/auto-setting.js";
import { IMPORTER_VERSION, SOURCE_TOOLS, type SourceTool } from "../import/import-plan.js";
import { type ImportOptions, type ImportResult, importPaths } from "../import/import-run.js";
import { sourceHomes } from "../import/scan.js";
import { safeJson, safeLine } from "../render/safe-text.js";
import type { CliIo } from "./cli-io.js";

/** Printed (exit 2) for a bad invocation. */
export const IMPORT_USAGE =
	"Usage: xcsh import <file|dir>… [--from claude-code|codex|gemini|opencode|pi|auto] [--dry-run] [--json] [--cwd <dir>] | xcsh import --scan [--auto on|off]";

/** The last line of `--scan` while auto import is on. */
export const AUTO_ON =
	"Auto import is on: while xcsh runs, it imports what is new in these places in the background (xcsh import --scan --auto off turns it off).";
/** The last line of `--scan` while auto import is off: how to turn it on. */
export const AUTO_OFF =
	"Auto import is off: xcsh import --scan --auto on makes xcsh import what is new in these places in the background while it runs.";

/** Flags of `xcsh import`. */
export interface ImportFlags {
	from?: string | undefined;
	dryRun: boolean;
	json: boolean;
	cwd?: string | undefined;
	scan: boolean;
	/** `--auto on|off` (with --scan): sets `import.auto` in settings.json. */
	auto?: string | undefined;
}

const CWD_NOTE: Record<string, string> = {
	"--cwd": " (from --cwd: the source keeps no working directory)",
	"current directory": " (the current directory: the source keeps no working directory; pass --cwd to choose)",
	source: "",
};

/** One line per source file: what was done, where it went, or why it was skipped. */
export function describeResult(result: ImportResult, dryRun: boolean): string {
	// A session of a database is named inside it.
	const within = result.sourceSession === undefined ? "" : ` session ${safeLine(result.sourceSession)}`;
	const source = `${safeLine(result.source)}${within}`;
	if (result.status === "skipped") return `skipped ${source}: ${safeLine(result.reason)}`;
	const where = `${safeLine(result.sessionFile)}, project ${safeLine(result.cwd)}${CWD_NOTE[result.cwdFrom]}`;
	const torn =
		result.unreadableLines.length > 0 ? `; ${result.unreadableLines.length} unreadable line(s) left out` : "";
	const n = `${result.entries} entr${result.entries === 1 ? "y" : "ies"}`;
	switch (result.status) {
		case "imported":
			return `${dryRun ? "would import" : "imported"} ${source} (${result.tool}) → ${where}: ${n}${torn}`;
		case "appended":
			return `${dryRun ? "would append" : "appended"} ${n} from ${source} to ${where}${torn}`;
		case "unchanged":
			return `unchanged ${source}: already imported into ${safeLine(result.sessionFile)}`;
		case "reimported": {
			const previous = safeLine(result.previousSessionFile ?? "");
			const why = result.previousImporter
				? `${IMPORTER_VERSION} maps it differently from ${safeLine(result.previousImporter)}, which imported it into ${previous}`
				: `it changed since the import into ${previous}`;
			return `${dryRun ? "would import again" : "imported again"} ${source} (${why}) → ${where}: ${n}${torn}`;
		}
	}
}

/** `XCSH_IMPORT_THREADS=n`: how many worker threads build sessions (0: none); unset or not a number: the default. */
function threadsFromEnv(): { threads?: number } {
	const value = process.env.XCSH_IMPORT_THREADS;
	const n = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
	return Number.isInteger(n) && n >= 0 ? { threads: Math.min(n, 16) } : {};
}

function parseFrom(from: string | undefined): SourceTool | "auto" | undefined {
	if (from === undefined || from === "auto") return "auto";
	return (SOURCE_TOOLS as readonly string[]).includes(from) ? (from as SourceTool) : undefined;
}

/** `xcsh import`: other agents' sessions become native xcsh sessions; exit 1 when any file was skipped. */
export async function runImportCommand(args: readonly string[], flags: ImportFlags, io: CliIo): Promise<number> {
	const from = parseFrom(flags.from);
	if (from === undefined) {
		io.stderr(`Unknown --from ${safeLine(flags.from ?? "")}: use ${SOURCE_TOOLS.join(", ")} or auto.\n`);
		return 2;
	}
	if (flags.cwd === "") {
		io.stderr(`--cwd needs a directory.\n${IMPORT_USAGE}\n`);
		return 2;
	}
	const homes = flags.scan ? sourceHomes() : [];
	if (flags.scan && args.length > 0) {
		io.stderr(`--scan takes no paths.\n${IMPORT_USAGE}\n`);
		return 2;
	}
	if (!flags.scan && args.length === 0) {
		io.stderr(`${IMPORT_USAGE}\n`);
		return 2;
	}
	if (flags.auto !== undefined) {
		const refused = await setAuto(flags, io);
		if (refused !== undefined) return refused;
	}
	const options: ImportOptions = {
		from,
		// --scan only lists: it never writes.
		dryRun: flags.dryRun || flags.scan,
		cwd: resolve(io.cwd, flags.cwd ?? "."),
		cwdGiven: flags.cwd !== undefined,
		...threadsFromEnv(),
	};
	const paths = flags.scan ? homes.map((home) => home.path) : args;
	const results = await importPaths(paths, options);
	if (flags.json && !flags.scan) io.stdout(`${safeJson(results)}\n`);
	else if (!flags.json) {
		if (flags.scan) {
			if (homes.length === 0) io.stdout("No sessions of other agents found in the usual places.\n");
			for (const home of homes) io.stdout(`${home.tool}: ${safeLine(home.path)}\n`);
		}
		for (const result of results) io.stdout(`${describeResult(result, options.dryRun)}\n`);
		if (flags.scan && results.some((r) => r.status !== "skipped" && r.status !== "unchanged"))
			io.stdout(`Run xcsh import ${paths.map(safeLine).join(" ")} to import them.\n`);
	}
	if (flags.scan) await sayAuto(flags.json, io, { homes, results });
	return results.some((result) => result.status === "skipped") ? 1 : 0;
}

/** `--auto on|off`: sets the setting first; an exit code when it is refused, else undefined. */
async function setAuto(flags: ImportFlags, io: CliIo): Promise<number | undefined> {
	if (!flags.scan) {
		io.stderr(`--auto goes with --scan: xcsh import --scan --auto on|off.\n${IMPORT_USAGE}\n`);
		return 2;
	}
	if (flags.auto !== "on" && flags.auto !== "off") {
		io.stderr(`Unknown --auto ${safeLine(flags.auto ?? "")}: use on or off.\n`);
		return 2;
	}
	const written = await writeAutoSetting(flags.auto === "on");
	if (written.ok) return undefined;
	io.stderr(`Could not turn auto import ${flags.auto}: ${safeLine(written.reason)}.\n`);
	return 1;
}

/** The end of `--scan`: whether a running xcsh imports from these places by itself (`auto` in the JSON). */
async function sayAuto(json: boolean, io: CliIo, found: { homes: unknown; results: unknown }): Promise<void> {
	const setting = await readAutoSetting();
	if (setting.kind === "invalid") io.stderr(`${safeLine(setting.reason)}; auto import is off.\n`);
	if (json) io.stdout(`${safeJson({ ...found, auto: setting.kind === "on" })}\n`);
	else io.stdout(`${setting.kind === "on" ? AUTO_ON : AUTO_OFF}\n`);
}
