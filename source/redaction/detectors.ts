import type { Detector } from "./detector-types.js";
import { ci, escapeRegex } from "./regex-source.js";
import {
	refineAssignment,
	refineBasicAuth,
	refineMixedToken,
	refineNotMasked,
	refinePlaceholderFree,
} from "./values.js";
import { AWS_SECRET_AFTER_KEY_ID, VENDOR_DETECTORS, type VendorKind } from "./vendor-formats.js";

export type { Companion, Detector, DetectorRole, MatchSpan, Refine } from "./detector-types.js";
export { escapeRegex } from "./regex-source.js";

/** Ids of the built-in detectors, as they appear in `[REDACTED:<kind>]`. */
export type BuiltinKind =
	| "aws-access-key-id"
	| "aws-secret-access-key"
	| "gcp-service-account-key"
	| "gcp-api-key"
	| "google-oauth-client-secret"
	| "google-oauth-token"
	| "azure-storage-key"
	| "azure-sas-token"
	| "github-token"
	| "gitlab-token"
	| "slack-token"
	| "slack-webhook"
	| "stripe-key"
	| "anthropic-api-key"
	| "openai-api-key"
	| "npm-token"
	| "jwt"
	| "private-key"
	| "url-password"
	| "bearer-token"
	| "secret-assignment"
	| "env-value"
	| VendorKind;

type BuiltinDetector = Detector & { readonly kind: BuiltinKind | "skip" };

/**
 * Words that make a key (env name, YAML key, JSON property) look like it holds a secret. The word must
 * end where a word ends in the key's casing (`authToken`, `API_KEY`), so `tokenize`, `MAX_TOKENS`,
 * `author` and `XAUTHORITY` are not keys of secrets.
 */
const SECRET_KEY_WORD = `(?:${[
	ci("token"),
	ci("secret"),
	`${ci("pass")}(?:${ci("word")}|${ci("wd")})`,
	`${ci("api")}[_-]?${ci("key")}`,
	`${ci("private")}[_-]?${ci("key")}`,
	`${ci("access")}[_-]?${ci("key")}`,
	`${ci("credential")}[sS]?`,
	`${ci("auth")}(?:${ci("orization")})?`,
].join("|")})(?:(?<=[a-z])(?![a-z])|(?<=[A-Z])(?![A-Z]))`;

const SECRET_KEY_RE = new RegExp(SECRET_KEY_WORD);

/** True when a variable or property name looks like it holds a secret. */
export function isSecretKeyName(name: string): boolean {
	return SECRET_KEY_RE.test(name);
}

const B = "(?<![A-Za-z0-9_])"; // left boundary
const E = "(?![A-Za-z0-9_])"; // right boundary
const QUOTE = `(?:\\\\?["'])?`; // an optional quote, possibly JSON-escaped
const SEP = "[ \\t]*(?::=|=>|=(?!=)|:(?![:/]))[ \\t]*";
const SCHEME = `(?:(?:${ci("bearer")}|${ci("basic")}|${ci("token")}|${ci("bot")})[ \\t]+)?`;
const PEM_HEAD = "-----BEGIN[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----";
const PEM_TAIL = "-----END[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----";

// A quoted value ends at its own quote; the lookbehinds pair it with the opening one without a backreference.
const QUOTED_VALUE = ['"', "'", "`"].map((q) => `(?<=${q}${SCHEME})[^${q}\\n\\\\]+(?=\\\\?${q})`).join("|");

/** Never-redacted spans that would otherwise look like secrets; listed first so they are consumed whole. */
const SKIPS: readonly BuiltinDetector[] = [
	{ kind: "skip", prefix: "", secret: "data:[\\w.+-]+/[\\w.+-]+(?:;[\\w=.-]+)*;base64,[A-Za-z0-9+/=]*", role: "skip" },
	{ kind: "skip", prefix: "", secret: `${B}sha(?:1|256|384|512)-[A-Za-z0-9+/]{20,}={0,2}`, role: "skip" },
	{ kind: "skip", prefix: "", secret: "\\[REDACTED:[\\w:.-]+\\]", role: "skip" },
];

/** Formats that identify themselves, then framed ones. */
const SPECIFIC: readonly BuiltinDetector[] = [
	{
		kind: "gcp-service-account-key",
		prefix: `\\\\?"private_key\\\\?"[ \\t]*:[ \\t]*\\\\?"`,
		secret: `-----BEGIN PRIVATE KEY-----[^"]{0,20000}?-----END PRIVATE KEY-----(?:\\\\n)?`,
	},
	{
		kind: "private-key",
		prefix: "",
		secret: `${PEM_HEAD}(?:[\\s\\S]{0,20000}?${PEM_TAIL}|(?:[A-Za-z0-9+/=:,\\s-]|\\\\[nr])*)`,
	},
	{
		kind: "aws-access-key-id",
		prefix: B,
		secret: `(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|AGPA)[A-Z0-9]{16}${E}`,
		refine: refineNotMasked,
		companion: AWS_SECRET_AFTER_KEY_ID,
	},
	{
		kind: "aws-secret-access-key",
		prefix: `${B}(?:${ci("aws")}[_.-]?)?${ci("secret")}[_.-]?(?:${ci("access")}[_.-]?)?${ci("key")}${QUOTE}${SEP}${QUOTE}`,
		secret: "[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])",
		refine: refineNotMasked,
	},
	{ kind: "gcp-api-key", prefix: B, secret: "AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])", refine: refineNotMasked },
	{ kind: "google-oauth-client-secret", prefix: B, secret: "GOCSPX-[A-Za-z0-9_-]{20,}", refine: refineNotMasked },
	{ kind: "google-oauth-token", prefix: B, secret: "ya29\\.[0-9A-Za-z_-]{20,}", refine: refineNotMasked },
	{
		kind: "azure-storage-key",
		prefix: `(?<![A-Za-z])(?:${ci("accountkey")}|${ci("sharedaccesskey")})=`,
		secret: "[A-Za-z0-9+/]{20,}={0,2}",
	},
	{
		kind: "azure-storage-key",
		prefix: `${B}${ci("azure")}[_.-]?${ci("storage")}[_.-]?(?:${ci("account")}[_.-]?)?${ci("key")}${QUOTE}${SEP}${QUOTE}`,
		secret: "[A-Za-z0-9+/]{40,}={0,2}",
	},
	{ kind: "azure-sas-token", prefix: "[?&;]sig=", secret: "[A-Za-z0-9%+/]{30,}(?:%3[Dd]|=){0,2}" },
	{
		kind: "github-token",
		prefix: B,
		secret: `(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{40,250})${E}`,
		refine: refineNotMasked,
	},
	{
		kind: "gitlab-token",
		prefix: B,
		secret: "gl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct)-[A-Za-z0-9_.-]{20,}",
		refine: refineNotMasked,
	},
	{ kind: "slack-token", prefix: B, secret: "(?:xox[abposr]|xapp)-[0-9A-Za-z-]{10,250}", refine: refineMixedToken },
	{
		kind: "slack-webhook",
		prefix: "hooks\\.slack\\.com/(?:services|workflows|triggers)/",
		secret: "[A-Za-z0-9/_-]{20,}",
	},
	{
		kind: "stripe-key",
		prefix: B,
		secret: `(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,247}|whsec_[A-Za-z0-9]{24,})${E}`,
		refine: refineNotMasked,
	},
	{
		kind: "anthropic-api-key",
		prefix: "(?<![A-Za-z0-9_-])",
		secret: "sk-ant-[A-Za-z0-9_-]{20,}",
		refine: refineNotMasked,
	},
	{
		kind: "openai-api-key",
		prefix: "(?<![A-Za-z0-9_-])",
		secret: "sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
		refine: refineMixedToken,
	},
	{ kind: "npm-token", prefix: B, secret: `npm_[A-Za-z0-9]{36}${E}`, refine: refineNotMasked },
	...VENDOR_DETECTORS,
	{
		kind: "jwt",
		prefix: "(?<![A-Za-z0-9_-])",
		secret: "eyJ[A-Za-z0-9_-]{8,}\\.ey[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*",
	},
	{
		// Anchored at "://" rather than the scheme, so the joined regex is not tried at every word start.
		kind: "url-password",
		prefix: ":\\/\\/(?<=[A-Za-z][A-Za-z0-9+.-]{0,30}:\\/\\/)[^\\s/:@'\"<>[\\]]{0,256}:",
		secret: "[^\\s/@'\"<>]{1,256}(?=@[A-Za-z0-9[])",
		refine: refinePlaceholderFree,
		role: "framed",
	},
	{
		kind: "bearer-token",
		prefix: `${B}(?:Bearer|bearer|BEARER|Basic|basic|BASIC)[ \\t]+`,
		secret: "[A-Za-z0-9._~+/-]{8,}=*",
		refine: refineBasicAuth,
		role: "framed",
	},
];

/** Formats recognised by their surroundings only. */
const CONTEXTUAL: readonly BuiltinDetector[] = [
	{
		kind: "secret-assignment",
		// `\]?` for subscripts: os.environ["API_KEY"] = "…"
		prefix: `${SECRET_KEY_WORD}[\\w.-]*${QUOTE}\\]?${SEP}(?:\\\\?["'\`])?${SCHEME}`,
		secret: `${QUOTED_VALUE}|[^\\s"'\`\\\\&]+`,
		refine: refineAssignment,
		role: "contextual",
	},
];

/** Detectors for values of the current process's secret-looking environment variables (longest first). */
export function envDetectors(values: readonly string[]): BuiltinDetector[] {
	const sorted = [...new Set(values)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
	return sorted.map((value) => ({ kind: "env-value", prefix: "", secret: escapeRegex(value) }));
}

/** The built-in detectors in scan priority order, with env-value detectors slotted before the contextual ones. */
export function builtinDetectors(env: readonly Detector[] = []): Detector[] {
	return [...SKIPS, ...SPECIFIC, ...env, ...CONTEXTUAL];
}
