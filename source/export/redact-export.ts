import type { RedactionSummary } from "../redaction/redact.js";

/** "3 secrets redacted (2 github-token, 1 jwt)", or undefined when there were none. */
export function describeRedaction(summary: RedactionSummary): string | undefined {
	if (summary.total === 0) return undefined;
	const kinds = Object.entries(summary.byKind)
		.sort((a, b) => b[1] - a[1])
		.map(([kind, n]) => `${n} ${kind}`)
		.join(", ");
	return `${summary.total} ${summary.total === 1 ? "secret" : "secrets"} redacted (${kinds})`;
}
