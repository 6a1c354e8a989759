import type { MatchSpan } from "./detector-types.js";

// Values that stand for a secret rather than being one: templates, masks, booleans, earlier redactions.
const PLACEHOLDER = new RegExp(
	`^(?:${[
		"<[^<>]*>",
		"\\$\\{[^}]*\\}?",
		"\\$\\(.*",
		"\\$[A-Za-z_][A-Za-z0-9_]*",
		"\\{\\{.*\\}\\}",
		"%[A-Za-z_][A-Za-z0-9_]*%",
		"%[sdv]",
		"(?:[A-Za-z0-9_-]{1,16}[-_])?[xX*]{3,}",
		"[.…*#?_-]+",
		// Elided in docs: "sk-...", "ghp_…abcd".
		"[^\\s]{0,24}(?:\\.\\.\\.|…)[^\\s]{0,24}",
		"\\[REDACTED[^\\]]*\\]",
		"change[-_ ]?me",
		// The word itself stands in for the value: `user:password@localhost`, `PASSWORD=password`.
		"pass(?:word|wd)?|pwd|secret",
		"placeholder",
		"redacted",
		"your[-_ .][\\w.-]*",
		"(?:dummy|example|sample)(?:[-_ .][\\w.-]*)?",
		"null|none|nil|undefined|true|false|yes|no|on|off|empty|todo|tbd",
	].join("|")})$`,
	"i",
);
// Durations, counts and limits ("MAX_TOKENS=4096", "token_ttl: 30s"); longer numbers may be PINs or passwords.
const SHORT_NUMBER = /^[+-]?\d(?:_?\d){0,5}(?:\.\d+)?(?:ms|s|m|h|d|k|kb|mb|gb|%)?$/i;
// Names, not values: `apiKeyEnv: "OPENAI_API_KEY"`, `marker = "gcp-vertex-credentials"`, `"auth.json"`.
const NAME =
	/^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z]+(?:[-_][a-z]+)+|[\w.-]*\.(?:json|ya?ml|toml|ini|txt|env|cfg|conf|pem|crt|key|pub|js|ts|py|sh))$/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
// Dependency ranges ("@aws-sdk/credential-provider-env": "^3.972.94").
const VERSION = /^[~^>=<v]*\d+(?:\.\d+){1,3}(?:[-+][\w.-]+)?$/;
const URL_OR_WINDOWS_PATH = /^(?:[A-Za-z]:\\|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/;
// A Unix path is made of path characters; "/aB3+x~y" is a password that starts with a slash.
const UNIX_PATH = /^(?:\.{0,2}|~)\/[\w.@%-]*(?:\/[\w.@%-]*)*$/;
// AWS's documentation keys (AKIAIOSFODNN7EXAMPLE, wJalr…EXAMPLEKEY) and the like.
const EXAMPLE_KEY = /EXAMPLE/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MEMBER = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;
const CALL = /^[\w$.?]+[([]/;
// Type names and auth schemes that follow `token:` in code and API docs, never a secret.
const NON_SECRET_WORDS: ReadonlySet<string> = new Set([
	"string",
	"number",
	"boolean",
	"bigint",
	"symbol",
	"object",
	"any",
	"unknown",
	"never",
	"void",
	"str",
	"int",
	"float",
	"bool",
	"bytes",
	"dict",
	"list",
	"optional",
	"required",
	"bearer",
	"basic",
	"readonly",
	"secretstr",
]);
const CODE_FOLLOWER = /^[ \t]*(?:[|&?=+*/<>]|\.\w)/;

/** True when `value` is a file path or a URL rather than data; a single random-looking segment is data. */
function isPathOrUrl(value: string): boolean {
	if (URL_OR_WINDOWS_PATH.test(value)) return true;
	if (!UNIX_PATH.test(value)) return false;
	return value.indexOf("/", 1) !== -1 || !looksRandom(value.slice(1));
}

/** Lower-case words joined by "-" or "_": a name (`app-db-credentials`) unless it is under a password key. */
const WORDS = /^[a-z]+(?:[-_][a-z]+)+$/;
// Words that make a joined-words value a reference to a secret rather than a passphrase.
const SECRET_WORDS_IN_VALUE = /pass|secret|token|key|cred|auth/;

/**
 * True when a value could be a credential: not a placeholder, number, version, name, date, path or plain URL.
 * `passphrase`: the value sits under a password key, where words joined by dashes are a passphrase.
 */
export function isPlausibleSecret(value: string, passphrase = false): boolean {
	if (value.length < 4 || NON_SECRET_WORDS.has(value.toLowerCase())) return false;
	if (PLACEHOLDER.test(value) || SHORT_NUMBER.test(value) || VERSION.test(value)) return false;
	if (EXAMPLE_KEY.test(value) || DATE.test(value)) return false;
	if (NAME.test(value) && !(passphrase && WORDS.test(value) && !SECRET_WORDS_IN_VALUE.test(value))) return false;
	return !isPathOrUrl(value);
}

/** True when an unquoted value reads as code (`apiKey: opts.apiKey,`, `token = match[0];`) rather than data. */
function isCodeExpression(value: string, trimmedPunctuation: boolean): boolean {
	if (CALL.test(value) || MEMBER.test(value) || value.endsWith("[]")) return true;
	return trimmedPunctuation && IDENTIFIER.test(value);
}

/** YAML-style keys sit at the start of a line (after indentation or a list marker); prose does not. */
function keyAtLineStart(text: string, keywordStart: number): boolean {
	const limit = Math.max(0, keywordStart - 256);
	let i = keywordStart;
	while (i > limit && /[\w.-]/.test(text[i - 1]!)) i--;
	if (i > 0 && (text[i - 1] === '"' || text[i - 1] === "'")) i--;
	const skipBlanks = (at: number): number => {
		let j = at;
		while (j > limit && (text[j - 1] === " " || text[j - 1] === "\t")) j--;
		return j;
	};
	let j = skipBlanks(i);
	if (j > 0 && "-*>".includes(text[j - 1]!) && j < i) j = skipBlanks(j - 1);
	return j === 0 || text[j - 1] === "\n";
}

function restOfLine(text: string, from: number): string {
	const newline = text.indexOf("\n", from);
	return text.slice(from, newline === -1 ? Math.min(text.length, from + 256) : Math.min(newline, from + 256));
}

/** Long, mixed-case and with digits: a generated token (`IQoJb3JpZ2luX2Vj…`), not a name someone typed. */
function looksRandom(value: string): boolean {
	return value.length >= 16 && /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value);
}

const SEPARATOR = /^([\w.-]+)(?:\\?["'])?\]?([ \t]*)(:=|=>|=|:)([ \t]*)/;
const PASSWORD_KEY = /pass(?:word|wd)|pwd/i;

/** Accepts the value of a secret-looking `KEY=value` / `key: value` unless it is a placeholder or code. */
export function refineAssignment({ text, matchStart, start, end }: MatchSpan): number | undefined {
	const sep = SEPARATOR.exec(text.slice(matchStart, start));
	const afterSeparator = sep ? text.slice(matchStart + sep[0].length, start) : "";
	const passphrase = PASSWORD_KEY.test(sep?.[1] ?? "");
	if (/["'`]/.test(afterSeparator)) {
		return isPlausibleSecret(text.slice(start, end).trim(), passphrase) ? end : undefined;
	}
	let trimmedEnd = end;
	while (trimmedEnd > start && ",;)]}".includes(text[trimmedEnd - 1]!)) trimmedEnd--;
	const value = text.slice(start, trimmedEnd);
	if (!isPlausibleSecret(value, passphrase) || !isPlausibleSecret(text.slice(start, end), passphrase)) return undefined;
	const rest = restOfLine(text, trimmedEnd);
	if (isCodeExpression(value, trimmedEnd < end)) return undefined;
	// The value closes a string (`-H "X-Api-Key: abc123"`): a header or setting written inline.
	if (/^\\?["'`]/.test(rest)) return trimmedEnd;
	if (sep?.[3] === ":") {
		// YAML: the key opens the line and nothing but a comment follows the value.
		const tail = rest.trim();
		if (tail !== "" && !tail.startsWith("#")) return undefined;
		return keyAtLineStart(text, matchStart) ? trimmedEnd : undefined;
	}
	// An env file or shell line has no blanks around "=" (and `TOKEN=abc > .env` is still a secret);
	// with blanks, an identifier or an operator after the value (`token = base ?? fallback`) is code.
	const spaced = sep !== null && (sep[2] !== "" || sep[4] !== "");
	if (!spaced || looksRandom(value)) return trimmedEnd;
	return IDENTIFIER.test(value) || CODE_FOLLOWER.test(rest) ? undefined : trimmedEnd;
}

/** Vendor tokens are random: a run of words and dashes without a digit is an identifier (`sk-learn-…`). */
export function refineMixedToken({ text, start, end }: MatchSpan): number | undefined {
	const value = text.slice(start, end);
	return /\d/.test(value) && /[A-Za-z]/.test(value) && !value.includes("--") ? end : undefined;
}

/** Vendor tokens are random: a body of one or two repeated characters is a mask (`sk_live_xxxxxxxx`), EXAMPLE a doc key. */
export function refineNotMasked({ text, start, end }: MatchSpan): number | undefined {
	if (EXAMPLE_KEY.test(text.slice(start, end))) return undefined;
	return new Set(text.slice(Math.max(start, end - 16), end)).size > 3 ? end : undefined;
}

/** A 40-character AWS secret next to AWS's name or a key id: random-looking, and not the documentation key. */
export function isAwsSecret(value: string): boolean {
	return looksRandom(value) && !EXAMPLE_KEY.test(value);
}

/** `isAwsSecret` as a detector refinement. */
export function refineAwsSecret({ text, start, end }: MatchSpan): number | undefined {
	return isAwsSecret(text.slice(start, end)) ? end : undefined;
}

/** URL passwords: anything but a placeholder (`${DB_PASSWORD}`, `<password>`, `***`). */
export function refinePlaceholderFree({ text, start, end }: MatchSpan): number | undefined {
	return PLACEHOLDER.test(text.slice(start, end)) ? undefined : end;
}

/** `Bearer <token>` needs a digit (prose says "Bearer authentication"); `Basic` must decode to `user:password`. */
export function refineBasicAuth({ text, matchStart, start, end }: MatchSpan): number | undefined {
	const value = text.slice(start, end);
	if (text.slice(matchStart, start).trim().toLowerCase() === "basic") {
		const decoded = Buffer.from(value, "base64").toString("latin1");
		return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded) ? end : undefined;
	}
	return value.length >= 16 && /\d/.test(value) ? end : undefined;
}
