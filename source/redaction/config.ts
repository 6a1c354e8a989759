import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import type { ExtraPattern } from "./scanner.js";

/** An allow-list entry: an exact secret, or a regex the secret matches. */
export type AllowRule =
	| { readonly type: "exact"; readonly value: string }
	| { readonly type: "regex"; readonly regex: RegExp };

/** What redaction.json adds to the built-in detectors. */
export interface RedactionConfig {
	readonly patterns: readonly ExtraPattern[];
	readonly allow: readonly AllowRule[];
}

/** No extra patterns, nothing allowed. */
export const EMPTY_REDACTION_CONFIG: RedactionConfig = { patterns: [], allow: [] };

/** The outcome of reading redaction.json; `config` is always usable (invalid parts are dropped). */
export type RedactionConfigResult =
	| { readonly status: "missing"; readonly path: string; readonly config: RedactionConfig }
	| { readonly status: "ok"; readonly path: string; readonly config: RedactionConfig }
	| { readonly status: "invalid"; readonly path: string; readonly config: RedactionConfig; readonly message: string };

/** The parse of redaction.json text: what could be used, and the problems found. */
export interface ParsedRedactionConfig {
	readonly config: RedactionConfig;
	readonly errors: readonly string[];
}

const KIND = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const FLAGS = /^[imsu]*$/;
const SLASHED = /^\/(.+)\/([a-z]*)$/s;

/** `~/.xcsh/agent/redaction.json` (under `$XCSH_AGENT_DIR` when set). */
export function redactionConfigPath(): string {
	return join(getAgentDir(), "redaction.json");
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function compile(source: string, flags: string, where: string, errors: string[]): RegExp | undefined {
	if (!FLAGS.test(flags)) {
		errors.push(`${where} has unsupported flags "${flags}" (use i, m, s, u)`);
		return undefined;
	}
	let regex: RegExp;
	try {
		regex = new RegExp(source, flags);
	} catch (error) {
		errors.push(`${where} is not a valid regular expression: ${describe(error)}`);
		return undefined;
	}
	// An empty match would "redact" nothing at every position.
	if (regex.test("")) {
		errors.push(`${where} matches the empty string`);
		return undefined;
	}
	return regex;
}

function parsePattern(value: unknown, index: number, errors: string[]): ExtraPattern | undefined {
	const where = `patterns[${index}]`;
	if (!isRecord(value)) {
		errors.push(`${where} must be an object like { "kind": "acme-token", "regex": "acme_[a-z0-9]{20}" }`);
		return undefined;
	}
	const { kind, regex, flags } = value;
	if (typeof kind !== "string" || !KIND.test(kind)) {
		errors.push(`${where}.kind must be a short id of letters, digits, "-", "_" or "." (like "acme-token")`);
		return undefined;
	}
	if (typeof regex !== "string" || regex.length === 0) {
		errors.push(`${where}.regex must be a non-empty string`);
		return undefined;
	}
	if (flags !== undefined && typeof flags !== "string") {
		errors.push(`${where}.flags must be a string`);
		return undefined;
	}
	const compiled = compile(regex, flags ?? "", `${where}.regex`, errors);
	return compiled ? { kind, regex: compiled } : undefined;
}

function parseAllow(value: unknown, index: number, errors: string[]): AllowRule | undefined {
	const where = `allow[${index}]`;
	if (typeof value !== "string" || value.length === 0) {
		errors.push(`${where} must be a non-empty string (an exact secret or /regex/)`);
		return undefined;
	}
	const slashed = SLASHED.exec(value);
	if (!slashed) return { type: "exact", value };
	const regex = compile(slashed[1]!, slashed[2]!, where, errors);
	return regex ? { type: "regex", regex } : undefined;
}

function parseList<T>(
	value: unknown,
	name: string,
	errors: string[],
	item: (v: unknown, i: number) => T | undefined,
): T[] {
	if (value === undefined) return [];
	if (!Array.isArray(value)) {
		errors.push(`${name} must be an array`);
		return [];
	}
	return value.map(item).filter((v): v is T => v !== undefined);
}

/** Parses redaction.json text; invalid patterns and allow entries are dropped and reported, valid ones kept. */
export function parseRedactionConfig(text: string): ParsedRedactionConfig {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (error) {
		return { config: EMPTY_REDACTION_CONFIG, errors: [`is not valid JSON: ${describe(error)}`] };
	}
	if (!isRecord(raw)) return { config: EMPTY_REDACTION_CONFIG, errors: ["must be a JSON object"] };
	const errors: string[] = [];
	for (const key of Object.keys(raw)) {
		if (key !== "patterns" && key !== "allow" && key !== "$schema") {
			errors.push(`unknown key "${key}" (expected "patterns" or "allow")`);
		}
	}
	const patterns = parseList(raw.patterns, "patterns", errors, (v, i) => parsePattern(v, i, errors));
	const allow = parseList(raw.allow, "allow", errors, (v, i) => parseAllow(v, i, errors));
	return { config: { patterns, allow }, errors };
}

/** One line for the person: the first problem, and how many more there are. */
function formatConfigErrors(errors: readonly string[]): string {
	const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
	return `redaction.json: ${errors[0] ?? "is invalid"}${more}`;
}

/** Reads redaction.json; a missing file is not an error, a malformed one yields one line and what was usable. */
export function loadRedactionConfig(path: string = redactionConfigPath()): RedactionConfigResult {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") {
			return { status: "missing", path, config: EMPTY_REDACTION_CONFIG };
		}
		const message = `redaction.json: cannot be read: ${describe(error)}`;
		return { status: "invalid", path, config: EMPTY_REDACTION_CONFIG, message };
	}
	const parsed = parseRedactionConfig(text);
	if (parsed.errors.length === 0) return { status: "ok", path, config: parsed.config };
	return { status: "invalid", path, config: parsed.config, message: formatConfigErrors(parsed.errors) };
}

/** True when the allow-list lets this secret through. */
export function isAllowedSecret(config: RedactionConfig, secret: string): boolean {
	for (const rule of config.allow) {
		if (rule.type === "exact" ? rule.value === secret : rule.regex.test(secret)) return true;
	}
	return false;
}
