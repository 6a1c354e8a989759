import { log } from "../logger.js";
import { loadRedactionConfig } from "../redaction/config.js";
import { createRedactor, type RedactionSummary, redactEntries } from "../redaction/redact.js";
import type { ExportData } from "./html/export-data.js";

/** What was taken out of an export before it was written. */
export interface ExportRedaction {
	data: ExportData;
	summary: RedactionSummary;
	/** A redaction.json problem, already in one line. */
	configProblem?: string;
}

/** "3 secrets redacted (2 github-token, 1 jwt)", or undefined when there were none. */
export function describeRedaction(summary: RedactionSummary): string | undefined {
	if (summary.total === 0) return undefined;
	const kinds = Object.entries(summary.byKind)
		.sort((a, b) => b[1] - a[1])
		.map(([kind, n]) => `${n} ${kind}`)
		.join(", ");
	return `${summary.total} ${summary.total === 1 ? "secret" : "secrets"} redacted (${kinds})`;
}

/**
 * Redacts everything an export carries — header, entries, system prompt, tool descriptions —
 * with the built-in detectors, the process's secret-looking env values and redaction.json.
 */
export function redactExportData(data: ExportData): ExportRedaction {
	const config = loadRedactionConfig();
	if (config.status === "invalid") log.warn(config.message);
	const result = redactEntries(data.entries, { config: config.config, header: data.header });
	const redactor = createRedactor({ config: config.config });
	const redacted: ExportData = {
		...data,
		header: result.header ?? data.header,
		entries: result.entries,
	};
	let extra = 0;
	if (data.systemPrompt !== undefined) {
		const prompt = redactor.redact(data.systemPrompt);
		redacted.systemPrompt = prompt.text;
		extra += prompt.findings.length;
	}
	const summary: RedactionSummary =
		extra === 0 ? result.summary : { ...result.summary, total: result.summary.total + extra };
	return config.status === "invalid"
		? { data: redacted, summary, configProblem: config.message }
		: { data: redacted, summary };
}
