import type { IndexedRole } from "./entry-text.js";

/** The filters of a search beyond its words; times are epoch milliseconds, both ends inclusive. */
export interface SearchFilters {
	readonly role?: IndexedRole;
	readonly since?: number;
	readonly until?: number;
}

/** A parsed value, or the one-line message that says what was wrong. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** `role:`, `since:` and `until:` pulled out of a query; `error` is the first bad token. */
export interface ParsedQuery {
	/** The rest of the query: the words to match. */
	readonly words: string;
	readonly filters: SearchFilters;
	readonly error?: string;
}

/** Which end of a range a time bounds: a bare day starts (since) or ends (until) there. */
export type TimeEdge = "since" | "until";

const ROLES: Readonly<Record<string, IndexedRole>> = { user: "user", assistant: "assistant", tool: "toolResult" };
const SPAN_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// Date-time forms without an offset are local time (ECMAScript), like the bare day.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const SPAN = /^(\d+)([mhdw])$/i;
const TOKEN = /^(role|since|until):(.*)$/i;

/** The message for a bad role; `name` is how the person wrote the filter (`--role`, `role:`). */
export function roleError(name: string, value: string): string {
	return `${name} takes user, assistant or tool (got "${value}")`;
}

/** The message for a bad time; `name` is how the person wrote the filter (`--since`, `until:`). */
export function timeError(name: string, value: string): string {
	return `${name} takes a day (2026-11-01), an ISO time (2026-11-01T14:30) or a span ago (30m, 12h, 7d, 2w) (got "${value}")`;
}

/** The message when the range is empty. */
export function rangeError(since: string, until: string): string {
	return `${since} is later than ${until}: nothing can match`;
}

/** `user`, `assistant` or `tool` (case-insensitive) → the indexed role. */
export function parseRole(value: string, name = "--role"): Parsed<IndexedRole> {
	const role = ROLES[value.trim().toLowerCase()];
	return role === undefined ? { ok: false, error: roleError(name, value) } : { ok: true, value: role };
}

function localDay(text: string, edge: TimeEdge): number | undefined {
	const match = DAY.exec(text);
	if (!match) return undefined;
	const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
	const date = edge === "since" ? new Date(year, month, day) : new Date(year, month, day, 23, 59, 59, 999);
	// new Date rolls 2026-02-30 over into March: only a day that exists comes back unchanged.
	return date.getFullYear() === year && date.getMonth() === month && date.getDate() === day
		? date.getTime()
		: undefined;
}

/**
 * A time bound: `YYYY-MM-DD` (the local day's start for since, its end for until), an ISO time,
 * or a span ago (`30m`, `12h`, `7d`, `2w`), as epoch milliseconds.
 */
export function parseTime(value: string, edge: TimeEdge, name = `--${edge}`, now = Date.now()): Parsed<number> {
	const text = value.trim();
	const span = SPAN.exec(text);
	if (span) {
		const unit = span[2]!.toLowerCase() as keyof typeof SPAN_MS;
		return { ok: true, value: now - Number(span[1]) * SPAN_MS[unit] };
	}
	const day = localDay(text, edge);
	if (day !== undefined) return { ok: true, value: day };
	if (ISO_TIME.test(text)) {
		const ms = Date.parse(text.replace(" ", "T"));
		if (!Number.isNaN(ms)) return { ok: true, value: ms };
	}
	return { ok: false, error: timeError(name, value) };
}

/** The raw filter values as given on the command line. */
export interface FilterFlags {
	readonly role?: string | undefined;
	readonly since?: string | undefined;
	readonly until?: string | undefined;
}

function checkRange(filters: SearchFilters, sinceName: string, untilName: string): string | undefined {
	const { since, until } = filters;
	return since !== undefined && until !== undefined && since > until ? rangeError(sinceName, untilName) : undefined;
}

/** `--role`, `--since` and `--until` → filters, or the first problem. */
export function parseFilterFlags(flags: FilterFlags, now = Date.now()): Parsed<SearchFilters> {
	const filters: { -readonly [K in keyof SearchFilters]: SearchFilters[K] } = {};
	if (flags.role !== undefined) {
		const role = parseRole(flags.role, "--role");
		if (!role.ok) return role;
		filters.role = role.value;
	}
	for (const edge of ["since", "until"] as const) {
		const value = flags[edge];
		if (value === undefined) continue;
		const time = parseTime(value, edge, `--${edge}`, now);
		if (!time.ok) return time;
		filters[edge] = time.value;
	}
	const error = checkRange(filters, "--since", "--until");
	return error === undefined ? { ok: true, value: filters } : { ok: false, error };
}

/**
 * Pulls `role:user`, `since:7d` and `until:2026-11-01` out of a query (the last of each wins);
 * the other words stay, in order. A bad token is reported and left out of the filters.
 */
export function parseSearchQuery(query: string, now = Date.now()): ParsedQuery {
	const words: string[] = [];
	const filters: { -readonly [K in keyof SearchFilters]: SearchFilters[K] } = {};
	let error: string | undefined;
	for (const token of query.split(/\s+/)) {
		if (token === "") continue;
		const match = TOKEN.exec(token);
		if (!match) {
			words.push(token);
			continue;
		}
		const key = match[1]!.toLowerCase() as "role" | "since" | "until";
		const value = match[2]!;
		if (key === "role") {
			const role = parseRole(value, "role:");
			if (role.ok) filters.role = role.value;
			else error ??= role.error;
		} else {
			const time = parseTime(value, key, `${key}:`, now);
			if (time.ok) filters[key] = time.value;
			else error ??= time.error;
		}
	}
	error ??= checkRange(filters, "since:", "until:");
	return { words: words.join(" "), filters, ...(error === undefined ? {} : { error }) };
}
