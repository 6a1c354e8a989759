import { homedir } from "node:os";
import { EMPTY_REDACTION_CONFIG, isAllowedSecret, type RedactionConfig } from "./config.js";
import { builtinDetectors, envDetectors, escapeRegex, isSecretKeyName } from "./detectors.js";
import { SecretScanner, type SecretSpan } from "./scanner.js";
import { isPlausibleSecret } from "./values.js";

/** How text is redacted. */
export interface RedactOptions {
	/** redaction.json (`loadRedactionConfig().config`): extra patterns and the allow-list. */
	readonly config?: RedactionConfig;
	/** Whose secret-looking variables (values ≥ 8 chars) are redacted wherever they appear: `process.env` by default, `false` for none. */
	readonly env?: Readonly<Record<string, string | undefined>> | false;
	/** Replace the home directory with `~` in every string. */
	readonly homeAsTilde?: boolean;
	/** The home directory `homeAsTilde` replaces; `os.homedir()` by default. */
	readonly homeDir?: string;
}

/** One redacted secret; `start`/`end` index the input text, `preview` shows at most its first 4 characters. */
export interface Finding {
	readonly kind: string;
	readonly start: number;
	readonly end: number;
	readonly preview: string;
}

/** Redacted text and what was taken out of it. */
export interface TextRedaction {
	readonly text: string;
	readonly findings: Finding[];
}

/** A compiled redaction pass, reused for every string of a session. */
export interface Redactor {
	/** Replaces every secret in `text` with `[REDACTED:<kind>]`. */
	redact(text: string): TextRedaction;
	/** Like `redact`, but a value under a secret-looking key (`{ "password": "…" }`) is a secret as a whole. */
	redactKeyed(key: string, text: string): TextRedaction;
	/** `homeAsTilde` alone, for fields that are never scanned (cwd). */
	tilde(text: string): string;
}

/** Masks a secret for reports: never all of it, at most the first 4 characters. */
export function previewSecret(secret: string): string {
	const shown = secret.length >= 12 ? 4 : Math.floor(secret.length / 3);
	return `${secret.slice(0, shown)}…`;
}

/** Values of secret-looking environment variables that are worth searching for. */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
	const values: string[] = [];
	for (const [name, value] of Object.entries(env)) {
		// Digits alone would be found in every count and timestamp of the session.
		if (value === undefined || value.length < 8 || /^\d+$/.test(value) || !isSecretKeyName(name)) continue;
		if (isPlausibleSecret(value.trim())) values.push(value);
	}
	return values;
}

function tildeFunction(options: RedactOptions): (text: string) => string {
	const home = (options.homeDir ?? homedir()).replace(/[/\\]+$/, "");
	if (!options.homeAsTilde || home.length < 2) return (text) => text;
	// Only the whole directory: "/home/al" must not turn "/home/alice" into "~ice".
	const re = new RegExp(`${escapeRegex(home)}(?![\\w.-])`, "g");
	return (text) => (text.includes(home) ? text.replace(re, "~") : text);
}

function apply(text: string, spans: readonly SecretSpan[], tilde: (text: string) => string): TextRedaction {
	if (spans.length === 0) return { text: tilde(text), findings: [] };
	let out = "";
	let at = 0;
	const findings: Finding[] = [];
	for (const span of spans) {
		out += `${text.slice(at, span.start)}[REDACTED:${span.kind}]`;
		findings.push({ ...span, preview: previewSecret(text.slice(span.start, span.end)) });
		at = span.end;
	}
	return { text: tilde(out + text.slice(at)), findings };
}

/** Compiles detectors, env values and redaction.json once; the result is pure and deterministic. */
export function createRedactor(options: RedactOptions = {}): Redactor {
	const config = options.config ?? EMPTY_REDACTION_CONFIG;
	const env = options.env === false ? {} : (options.env ?? process.env);
	const isAllowed = (secret: string): boolean => isAllowedSecret(config, secret);
	const scanner = new SecretScanner({
		detectors: builtinDetectors(envDetectors(secretEnvValues(env))),
		patterns: config.patterns,
		isAllowed,
	});
	const tilde = tildeFunction(options);
	const redact = (text: string): TextRedaction => apply(text, scanner.scan(text), tilde);
	return {
		redact,
		redactKeyed(key, text) {
			const result = redact(text);
			if (result.findings.length > 0 || !isSecretKeyName(key)) return result;
			const value = text.trim();
			// A long or multi-line value under such a key is prose (a description), not a credential.
			if (value.length > 256 || value.includes("\n")) return result;
			if (!isPlausibleSecret(value) || isAllowed(value)) return result;
			const start = text.indexOf(value);
			return apply(text, [{ kind: "secret-assignment", start, end: start + value.length }], tilde);
		},
		tilde,
	};
}
