import { statSync } from "node:fs";
import { resolve } from "node:path";
import { describeFinding, findingLocation } from "../doctor/describe.js";
import { diagnoseSessionFile, listSessionFiles } from "../doctor/diagnose.js";
import {
	countBySeverity,
	type Finding,
	hasProblems,
	type SessionDiagnosis,
	type Severity,
	severityOf,
	slimWorthwhile,
} from "../doctor/findings.js";
import { type RepairResult, repairSessionFile } from "../doctor/repair.js";
import { safeJson, safeLine } from "../render/safe-text.js";
import type { CliIo } from "./cli-io.js";
import { formatTable } from "./format.js";

/** Flags `xcsh doctor` understands. */
export interface DoctorFlags {
	all: boolean;
	fix: boolean;
	json: boolean;
	/** Break the session's lock instead of checking it. */
	unlock?: boolean;
	/** Move big tool results and images of the session to the blob store. */
	slim?: boolean;
}

/** Printed (exit 2) when the arguments make no sense. */
const DOCTOR_USAGE =
	"Usage: xcsh doctor <session.jsonl> | --all [--fix] [--json] | --unlock <session.jsonl> | --slim <session.jsonl>";

/** The table shows this many findings per file; --json has them all. */
const MAX_ROWS = 20;

interface Checked {
	diagnosis: SessionDiagnosis;
	repair?: RepairResult;
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function statusOf(diagnosis: SessionDiagnosis): string {
	if (!diagnosis.header.valid) return `not a session file (${diagnosis.header.reason ?? "invalid header"})`;
	const counts = countBySeverity(diagnosis.findings);
	if (counts.error > 0) {
		return counts.warning > 0
			? `${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}`
			: plural(counts.error, "error");
	}
	return counts.warning > 0 ? plural(counts.warning, "warning") : "ok";
}

/** Long enough for any path (Linux PATH_MAX), short enough that a hostile parser message cannot flood. */
const PATH_MAX = 4096;

function findingRows(findings: readonly Finding[]): string[] {
	const rows = findings.slice(0, MAX_ROWS).map((f) => [findingLocation(f), severityOf(f), f.kind, describeFinding(f)]);
	// Descriptions name lock and temp files to act on: a path cut with "…" would be useless.
	const lines = rows.length > 0 ? formatTable(rows, { maxCell: PATH_MAX }).split("\n") : [];
	if (findings.length > MAX_ROWS)
		lines.push(`… ${plural(findings.length - MAX_ROWS, "more finding")} (--json lists them all)`);
	return lines.map((line) => `  ${line}`);
}

function wasRepaired(repair: RepairResult | undefined): boolean {
	return (
		repair !== undefined &&
		(repair.outcome.kind === "rewritten" || repair.removedLock !== undefined || repair.removedTemps !== undefined)
	);
}

function repairLines(repair: RepairResult): string[] {
	const lines: string[] = [];
	const { outcome } = repair;
	switch (outcome.kind) {
		case "rewritten": {
			const done = [...outcome.headerRepairs];
			if (outcome.quarantined.length > 0 || done.length === 0)
				done.push(`moved ${plural(outcome.quarantined.length, "line")} to ${outcome.quarantinePath}`);
			lines.push(`repaired: ${done.join("; ")}; the original is in ${outcome.backupPath}`);
			break;
		}
		case "unchanged":
			if (!repair.after.ok)
				lines.push(
					"not repaired: orphans, cycles, missing blobs and lines too long to read cannot be fixed automatically",
				);
			break;
		case "not-a-session":
			lines.push("not repaired: not a session file, left as it is");
			break;
		case "locked":
			lines.push(`not repaired: open in xcsh (pid ${outcome.pid} on ${outcome.host}); close it first`);
			break;
	}
	if (repair.removedLock !== undefined) lines.push(`removed stale lock ${repair.removedLock}`);
	for (const temp of repair.removedTemps ?? []) lines.push(`removed stale temp file ${temp}`);
	if (wasRepaired(repair)) lines.push(`now: ${statusOf(repair.after)}`);
	return lines.map((line) => `  ${line}`);
}

function renderTable(checked: readonly Checked[]): string {
	const blocks = checked.map(({ diagnosis, repair }) => {
		const lines = [`${diagnosis.path}  ${statusOf(diagnosis)}`, ...findingRows(diagnosis.findings)];
		const large = diagnosis.findings.find((f) => f.kind === "large-session");
		if (large && slimWorthwhile(large)) lines.push(`  try: xcsh doctor --slim ${diagnosis.path}`);
		if (repair) lines.push(...repairLines(repair));
		// Paths, parser messages and lock holders come from files: never raw to the terminal.
		return lines.map(safeLine).join("\n");
	});
	return blocks.join("\n");
}

function withSeverity(findings: readonly Finding[]): (Finding & { severity: Severity })[] {
	return findings.map((finding) => ({ severity: severityOf(finding), ...finding }));
}

function jsonOf(diagnosis: SessionDiagnosis): object {
	return {
		path: diagnosis.path,
		ok: diagnosis.ok,
		header: diagnosis.header,
		findings: withSeverity(diagnosis.findings),
	};
}

function summaryOf(checked: readonly Checked[]): { checked: number; withProblems: number; repaired: number } {
	return {
		checked: checked.length,
		withProblems: checked.filter((c) => hasProblems(c.diagnosis)).length,
		repaired: checked.filter((c) => wasRepaired(c.repair)).length,
	};
}

function renderJson(checked: readonly Checked[]): string {
	const files = checked.map(({ diagnosis, repair }) => {
		if (!repair) return jsonOf(diagnosis);
		const { outcome, removedLock, removedTemps, after } = repair;
		return { ...jsonOf(diagnosis), repair: { outcome, removedLock, removedTemps, after: jsonOf(after) } };
	});
	return safeJson({ files, summary: summaryOf(checked) });
}

/** The file to check, or an error message for stderr. */
function singleTarget(arg: string, cwd: string): { path: string } | { error: string } {
	const path = resolve(cwd, arg);
	try {
		if (!statSync(path).isFile()) return { error: `Not a session file: ${path}` };
	} catch {
		return { error: `File not found: ${path}` };
	}
	return { path };
}

async function checkFile(file: string, fix: boolean): Promise<Checked> {
	if (!fix) return { diagnosis: await diagnoseSessionFile(file) };
	const repair = await repairSessionFile(file);
	return { diagnosis: repair.before, repair };
}

/**
 * `xcsh doctor <session.jsonl> | --all [--fix] [--json]`: 0 when every file is ok (after --fix: the
 * repaired file), 1 when errors remain or the file is missing, 2 for usage errors.
 */
export async function runDoctorCommand(args: readonly string[], flags: DoctorFlags, io: CliIo): Promise<number> {
	const [arg] = args;
	if (flags.slim) {
		if (flags.all || flags.fix || flags.json || flags.unlock || args.length !== 1 || arg === undefined) {
			io.stderr(`${DOCTOR_USAGE}\n`);
			return 2;
		}
		const target = singleTarget(arg, io.cwd);
		if ("error" in target) {
			io.stderr(`${safeLine(target.error)}\n`);
			return 1;
		}
		const { runSlimCommand } = await import("./slim-command.js");
		return runSlimCommand(target.path, io);
	}
	if (flags.unlock) {
		if (flags.all || flags.fix || flags.json || args.length !== 1 || arg === undefined) {
			io.stderr(`${DOCTOR_USAGE}\n`);
			return 2;
		}
		const { runUnlockCommand } = await import("./unlock-command.js");
		return runUnlockCommand(arg, io);
	}
	if (flags.all ? args.length > 0 : args.length !== 1 || arg === undefined) {
		io.stderr(`${DOCTOR_USAGE}\n`);
		return 2;
	}
	let files: string[];
	if (arg === undefined) files = listSessionFiles();
	else {
		const target = singleTarget(arg, io.cwd);
		if ("error" in target) {
			io.stderr(`${safeLine(target.error)}\n`);
			return 1;
		}
		files = [target.path];
	}
	const checked: Checked[] = [];
	for (const file of files) {
		try {
			checked.push(await checkFile(file, flags.fix));
		} catch (error) {
			// With --all, a session deleted (or trashed) since the listing is simply gone.
			if (arg !== undefined || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
		}
	}
	if (flags.json) io.stdout(`${renderJson(checked)}\n`);
	else {
		const { checked: n, withProblems, repaired } = summaryOf(checked);
		const table = renderTable(checked);
		const summary = `${plural(n, "file")} checked, ${withProblems} with problems, ${repaired} repaired`;
		io.stdout(table.length > 0 ? `${table}\n\n${summary}\n` : `${summary}\n`);
	}
	return checked.every((c) => (c.repair?.after ?? c.diagnosis).ok) ? 0 : 1;
}
