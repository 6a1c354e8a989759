import type { SessionHeader, StoredEntry } from "../session/types.js";
import { createRedactor, type Finding, type RedactOptions, type Redactor, type TextRedaction } from "./redactor.js";

export type { Finding, RedactOptions, Redactor, TextRedaction } from "./redactor.js";
export { createRedactor } from "./redactor.js";

/** Options for `redactEntries`: text options plus the session header, redacted alongside. */
export interface RedactEntriesOptions extends RedactOptions {
	readonly header?: SessionHeader;
}

/** The secrets one entry held (kinds in order of first appearance). */
export interface EntryFindings {
	readonly entryId: string;
	readonly kinds: string[];
	readonly previews: string[];
}

/** What a redaction pass over a session took out. */
export interface RedactionSummary {
	readonly total: number;
	readonly byKind: Record<string, number>;
	readonly byEntry: EntryFindings[];
}

/** Redacted copies of the entries (and header), with the summary. */
export interface EntriesRedaction<E> {
	readonly entries: E[];
	readonly header?: SessionHeader;
	readonly summary: RedactionSummary;
}

/** Replaces every secret in `text` with `[REDACTED:<kind>]`; use `createRedactor` for many strings. */
export function redactText(text: string, options: RedactOptions = {}): TextRedaction {
	return createRedactor(options).redact(text);
}

// Opaque provider payloads: encrypted or signed, never shown, and corrupted by any change.
const OPAQUE_KEYS: ReadonlySet<string> = new Set(["thinkingSignature", "textSignature", "thoughtSignature"]);
// Header fields that are identity or locations: only `homeAsTilde` applies.
const HEADER_VERBATIM: ReadonlySet<string> = new Set(["type", "id", "timestamp", "version"]);
const HEADER_PATHS: ReadonlySet<string> = new Set(["cwd", "parentSession"]);

type Collect = (findings: readonly Finding[]) => void;

function isImageBlock(value: Record<string, unknown>): boolean {
	return value.type === "image" && typeof value.data === "string";
}

/** Deep copy with every string redacted; image `data` and signatures are copied as they are. */
function redactValue(value: unknown, key: string | undefined, redactor: Redactor, collect: Collect): unknown {
	if (typeof value === "string") {
		const result = key === undefined ? redactor.redact(value) : redactor.redactKeyed(key, value);
		collect(result.findings);
		return result.text;
	}
	if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined, redactor, collect));
	if (typeof value !== "object" || value === null) return value;
	const record = value as Record<string, unknown>;
	const image = isImageBlock(record);
	// fromEntries defines own properties, so a "__proto__" key stays data instead of becoming a prototype.
	return Object.fromEntries(
		Object.entries(record).map(([k, v]) => {
			const verbatim = (image && k === "data") || (OPAQUE_KEYS.has(k) && typeof v === "string");
			return [redactor.tilde(k), verbatim ? v : redactValue(v, k, redactor, collect)];
		}),
	);
}

function redactHeader(header: SessionHeader, redactor: Redactor, collect: Collect): SessionHeader {
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(header)) {
		if (HEADER_VERBATIM.has(k)) out[k] = v;
		else if (HEADER_PATHS.has(k) && typeof v === "string") out[k] = redactor.tilde(v);
		else out[k] = redactValue(v, k, redactor, collect);
	}
	return out as SessionHeader;
}

class SummaryBuilder {
	total = 0;
	readonly byKind: Record<string, number> = {};
	readonly byEntry: EntryFindings[] = [];

	/** A collector for text outside entries: counted in the total only (as exports always did). */
	forText(): Collect {
		return (findings) => {
			this.total += findings.length;
		};
	}

	/** A collector for one entry; the entry is listed only once it has a finding. */
	forEntry(entryId: string): Collect {
		let record: EntryFindings | undefined;
		return (findings) => {
			if (findings.length === 0) return;
			if (!record) {
				record = { entryId, kinds: [], previews: [] };
				this.byEntry.push(record);
			}
			for (const finding of findings) {
				this.total++;
				this.byKind[finding.kind] = (this.byKind[finding.kind] ?? 0) + 1;
				if (!record.kinds.includes(finding.kind)) record.kinds.push(finding.kind);
				record.previews.push(finding.preview);
			}
		};
	}
}

function isHeader(entry: StoredEntry | SessionHeader): entry is SessionHeader {
	return entry.type === "session";
}

/**
 * Redacts entries one at a time with one scanner (a streamed export never holds every entry):
 * `entry()` gives a redacted deep copy, `summary()` what was taken out so far.
 */
export class EntryRedaction {
	readonly #redactor: Redactor;
	readonly #summary = new SummaryBuilder();

	constructor(options: RedactOptions = {}) {
		this.#redactor = createRedactor(options);
	}

	/** A redacted copy of the header (id and timestamp kept, paths only with `homeAsTilde`). */
	header(header: SessionHeader): SessionHeader {
		return redactHeader(header, this.#redactor, this.#summary.forEntry(header.id));
	}

	/** A redacted deep copy of one entry (a header among entries is treated as a header). */
	entry<E extends StoredEntry | SessionHeader>(entry: E): E {
		const collect = this.#summary.forEntry(entry.id);
		if (isHeader(entry)) return redactHeader(entry, this.#redactor, collect) as E;
		return redactValue(entry, undefined, this.#redactor, collect) as E;
	}

	/** Redacts free text (a system prompt), counted in the summary's total and kinds. */
	text(text: string): string {
		const result = this.#redactor.redact(text);
		this.#summary.forText()(result.findings);
		return result.text;
	}

	/** What was redacted so far. */
	summary(): RedactionSummary {
		const s = this.#summary;
		return { total: s.total, byKind: s.byKind, byEntry: s.byEntry };
	}
}

/**
 * Redacted deep copies of session entries: every string (message text, thinking, tool-call arguments,
 * tool results, custom messages, summaries, labels, extension data) except image data and provider
 * signatures. A header, passed in `options.header` or found among the entries, keeps its id and cwd.
 * The inputs are never mutated; the same input always gives the same output.
 */
export function redactEntries<E extends StoredEntry | SessionHeader>(
	entries: readonly E[],
	options: RedactEntriesOptions = {},
): EntriesRedaction<E> {
	const redaction = new EntryRedaction(options);
	const header = options.header ? redaction.header(options.header) : undefined;
	const out = entries.map((entry) => redaction.entry(entry));
	const result = redaction.summary();
	return header ? { entries: out, header, summary: result } : { entries: out, summary: result };
}
