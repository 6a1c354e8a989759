/** How bad a finding is: errors make a file not ok, warnings are worth a look, info is harmless. */
export type Severity = "error" | "warning" | "info";

/** One thing `diagnoseSessionFile` found. Line numbers are 1-based lines of the file. */
export type Finding =
	/**
	 * The line is not JSON, not a JSON object, or an entry without a type (or, v2+, without an id): the
	 * loader skips it. Also a `message` entry without a message object, which makes opening the file throw.
	 */
	| { kind: "unparseable-line"; line: number; message: string }
	/** The file does not end with a newline and its last line does not parse: a write was cut off. */
	| { kind: "torn-tail"; line: number }
	/** The last line parses but has no newline: the next append terminates it first. */
	| { kind: "missing-final-newline" }
	/** Several entries share an id: the loader keeps the first and skips the others. */
	| { kind: "duplicate-id"; id: string; lines: number[] }
	/** The entry's parent is not in the file: it becomes a root of the tree. */
	| { kind: "orphan"; id: string; line: number; parentId: string }
	/** Parent links that loop: these entries are unreachable from any root. */
	| { kind: "cycle"; ids: string[] }
	/** A `blob:sha256:<hash>` whose blob is missing from the blob store: an image's, or (`block: "text"`) a tool result text's. */
	| { kind: "unresolved-blob"; hash: string; line: number; block?: "text" }
	/** A line far larger than anything xcsh writes (strings are cut at 500,000 characters). */
	| { kind: "oversized-line"; line: number; bytes: number }
	/** Bytes that are not UTF-8: they load as U+FFFD, and a later rewrite would keep only that. */
	| { kind: "invalid-utf8"; line: number }
	/** A lock left by a process of this host that is gone (pid null: the lock file is unreadable). */
	| { kind: "stale-lock"; lockPath: string; pid: number | null }
	/** A copy of the session an atomic rewrite left when its process died: unredacted, and removed by --fix. */
	| { kind: "stale-temp"; path: string; pid: number; bytes: number }
	/** The session is open in a running xcsh (or locked from another host, which cannot be judged). */
	| { kind: "live-lock"; pid: number; host: string }
	/** A v1/v2 file: it is migrated (with a backup) the next time it is opened. */
	| { kind: "needs-migration"; version: number }
	/** The header's version is not a number although the entries carry ids: it opens read-only. */
	| { kind: "malformed-version"; value: string }
	/**
	 * Bigger than the size above which sessions open with their big bodies on disk; `slimmableBytes` is
	 * what `--slim` would move to the blob store (tool result texts of 32 KiB or more, inline images).
	 */
	| { kind: "large-session"; bytes: number; threshold: number; slimmableBytes: number }
	/** A byte order mark or blank lines before the header: read fine, removed by `--fix`. */
	| { kind: "header-prefix"; bom: boolean; blankLines: number };

/** `--slim` is worth suggesting when it would move at least this share of a file. */
export const SLIM_WORTHWHILE_SHARE = 0.2;

/** True when a large-session finding should come with the `--slim` suggestion. */
export function slimWorthwhile(finding: { bytes: number; slimmableBytes: number }): boolean {
	return finding.slimmableBytes >= finding.bytes * SLIM_WORTHWHILE_SHARE;
}

/** The kinds of finding, for exhaustive tables. */
export type FindingKind = Finding["kind"];

/** What the header (the first non-blank line) says. */
export interface HeaderCheck {
	valid: boolean;
	/** The declared version (absent means v1); only for a valid header whose version can be trusted. */
	version?: number;
	/** Why the header is not valid: "empty", "first line is not valid JSON", … */
	reason?: string;
}

/** The result of diagnosing one session file. */
export interface SessionDiagnosis {
	path: string;
	/** A valid header and no error findings. */
	ok: boolean;
	header: HeaderCheck;
	findings: Finding[];
}

/** The severity of a finding. */
export function severityOf(finding: Finding): Severity {
	switch (finding.kind) {
		case "unparseable-line":
		case "torn-tail":
		case "duplicate-id":
		case "cycle":
		case "unresolved-blob":
		case "malformed-version":
			return "error";
		case "orphan":
		case "oversized-line":
		case "invalid-utf8":
		case "stale-lock":
		case "stale-temp":
			return "warning";
		case "missing-final-newline":
		case "live-lock":
		case "needs-migration":
		case "header-prefix":
		case "large-session":
			return "info";
	}
}

/** How many findings of each severity. */
export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
	const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
	for (const finding of findings) counts[severityOf(finding)]++;
	return counts;
}

/** `ok` as the report defines it: a valid header and no errors. */
export function isDiagnosisOk(header: HeaderCheck, findings: readonly Finding[]): boolean {
	return header.valid && findings.every((finding) => severityOf(finding) !== "error");
}

/** True when the file has something worth a look: an invalid header, an error or a warning. */
export function hasProblems(diagnosis: SessionDiagnosis): boolean {
	return !diagnosis.header.valid || diagnosis.findings.some((finding) => severityOf(finding) !== "info");
}
