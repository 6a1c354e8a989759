import { type Finding, slimWorthwhile } from "./findings.js";

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** A size for people: "812 B", "12.3 KB", "612.4 MB", "5.1 GB". */
export function sizeOf(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < MB) return `${(bytes / 1024).toFixed(1)} KB`;
	if (bytes < GB) return `${(bytes / MB).toFixed(1)} MB`;
	return `${(bytes / GB).toFixed(1)} GB`;
}

function ids(list: readonly string[], max = 5): string {
	const shown = list.slice(0, max).join(" → ");
	return list.length > max ? `${shown} → … (${list.length} entries)` : shown;
}

/** Where in the file a finding is: "line 12", "lines 3, 9", or "" for the file as a whole. */
export function findingLocation(finding: Finding): string {
	switch (finding.kind) {
		case "unparseable-line":
		case "torn-tail":
		case "orphan":
		case "unresolved-blob":
		case "oversized-line":
		case "invalid-utf8":
			return `line ${finding.line}`;
		case "duplicate-id":
			return `lines ${finding.lines.join(", ")}`;
		case "missing-final-newline":
		case "cycle":
		case "stale-lock":
		case "stale-temp":
		case "live-lock":
		case "needs-migration":
		case "malformed-version":
		case "header-prefix":
		case "large-session":
			return "";
	}
}

/** One sentence for a person: what is wrong and what it means. */
export function describeFinding(finding: Finding): string {
	switch (finding.kind) {
		case "unparseable-line":
			return `skipped when loading: ${finding.message}`;
		case "torn-tail":
			return "the last line was cut off (no final newline, not JSON)";
		case "missing-final-newline":
			return "no newline after the last line (harmless: the next append adds it)";
		case "duplicate-id":
			return `entry id ${finding.id} is used ${finding.lines.length} times; only line ${finding.lines[0]} loads`;
		case "orphan":
			return `entry ${finding.id} points to parent ${finding.parentId}, which is not in the file`;
		case "cycle":
			return `parent links loop: ${ids(finding.ids)}`;
		case "unresolved-blob":
			return `${finding.block === "text" ? "tool result text" : "image"} blob ${finding.hash.slice(0, 12)}… is missing from the blob store`;
		case "oversized-line":
			return `line is ${(finding.bytes / MB).toFixed(1)} MB`;
		case "invalid-utf8":
			return "holds bytes that are not UTF-8 (they load as �)";
		case "stale-lock":
			return finding.pid === null
				? `unreadable lock file ${finding.lockPath}`
				: `lock of pid ${finding.pid}, which is no longer running: ${finding.lockPath}`;
		case "stale-temp":
			return `temp file of pid ${finding.pid}, which is no longer running (${sizeOf(finding.bytes)}): ${finding.path}`;
		case "live-lock":
			return `open in xcsh (pid ${finding.pid} on ${finding.host})`;
		case "needs-migration":
			return `format v${finding.version}: migrated to v3 (with a backup) when next opened`;
		case "malformed-version":
			return `the header's version is ${finding.value}, not a number: the session opens read-only until --fix sets it`;
		case "large-session": {
			const over = `${sizeOf(finding.bytes)}, over the ${sizeOf(finding.threshold)} above which a session opens with its big entries left on disk`;
			return slimWorthwhile(finding)
				? `${over}; --slim would move ${sizeOf(finding.slimmableBytes)} of tool results and images to the blob store`
				: over;
		}
		case "header-prefix":
			return `${[finding.bom ? "a byte order mark" : "", finding.blankLines > 0 ? `${finding.blankLines} blank line${finding.blankLines === 1 ? "" : "s"}` : ""].filter(Boolean).join(" and ")} before the header (read fine; --fix removes ${finding.bom && finding.blankLines > 0 ? "them" : "it"})`;
	}
}
