import type { Companion, Detector, Refine } from "./detector-types.js";
import { ci } from "./regex-source.js";
import { isAwsSecret, refineAwsSecret, refineNotMasked } from "./values.js";

/** Ids of the vendor formats added for issue 12, as they appear in `[REDACTED:<kind>]`. */
export type VendorKind =
	| "huggingface-token"
	| "sendgrid-api-key"
	| "pypi-token"
	| "twilio-api-key"
	| "datadog-api-key"
	| "digitalocean-token"
	| "shopify-token"
	| "databricks-token"
	| "sentry-token"
	| "doppler-token"
	| "vault-token"
	| "linear-api-key"
	| "postman-api-key"
	| "grafana-token"
	| "newrelic-key"
	| "mailgun-api-key"
	| "azure-ad-client-secret"
	| "aws-secret-access-key";

type VendorDetector = Detector & { readonly kind: VendorKind };

// Left boundaries are checked in the refinement, not by a look-behind: V8 runs a leading look-behind of every
// alternative of the joined regex at every position, which made the scan 1.5× slower.
const B = /[A-Za-z0-9_]/;
const E = "(?![A-Za-z0-9_])";
// Formats whose body may hold "-" (or "."): the boundary must exclude it too, or a longer run would be cut.
const B_DASH = /[A-Za-z0-9_-]/;
const E_DASH = "(?![A-Za-z0-9_-])";
const E_DOT = "(?![A-Za-z0-9_.~-])";

function leftBounded(boundary: RegExp): Refine {
	return (span) => {
		const before = span.text[span.start - 1];
		return before !== undefined && boundary.test(before) ? undefined : refineNotMasked(span);
	};
}

/** A vendor prefix and a body: the whole token is the secret, masks (`hf_xxxx…`) and EXAMPLE keys are not. */
function token(kind: VendorKind, secret: string, left: RegExp = B): VendorDetector {
	return { kind, prefix: "", secret, refine: leftBounded(left) };
}

/**
 * Token formats published by the vendors (and listed by the public rule sets of secret scanners):
 * each is recognisable by its own prefix and length wherever it appears.
 */
const PREFIXED: readonly VendorDetector[] = [
	token("huggingface-token", `(?:hf_|api_org_)[A-Za-z]{34}${E}`),
	token("sendgrid-api-key", `SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${E_DASH}`),
	token("pypi-token", `pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}`, B_DASH),
	token("twilio-api-key", `SK[0-9a-fA-F]{32}${E}`),
	token("digitalocean-token", `do[opr]_v1_[a-f0-9]{64}${E}`),
	token("shopify-token", `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`),
	token("databricks-token", `dapi[a-f0-9]{32}(?:-\\d)?${E_DASH}`),
	token("sentry-token", `(?:sntryu_[a-f0-9]{64}${E}|sntrys_eyJ[A-Za-z0-9+/=]{20,}_[A-Za-z0-9_-]{20,})`),
	token("doppler-token", `dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,44}${E}`),
	token("vault-token", `hv[sb]\\.[A-Za-z0-9_-]{90,300}${E_DASH}`),
	token("linear-api-key", `lin_api_[A-Za-z0-9]{40}${E}`),
	token("postman-api-key", `PMAK-[a-f0-9]{24}-[a-f0-9]{34}${E}`, B_DASH),
	token("grafana-token", `(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}${E})`),
	token("newrelic-key", `(?:NRAK-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9-]{32})${E_DASH}`, B_DASH),
	token("mailgun-api-key", `(?:key|pubkey)-[a-f0-9]{32}${E_DASH}`, B_DASH),
	// Three characters, a digit, "Q~", then the rest: the shape of every Entra ID (Azure AD) client secret.
	token("azure-ad-client-secret", `[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}${E_DOT}`, /[A-Za-z0-9_~.-]/),
];

// No digits between a name and its key: the filler must not swallow another token on the way.
const DATADOG_NAME = `[Dd](?<![A-Za-z0-9].)(?:${ci("atadog")}|${ci("d")}[_-]?(?:${ci("api")}|${ci("app")}|${ci("application")}|${ci("client")})[_-]?(?:${ci("key")}|${ci("token")}))[^\\n\\d]{0,48}?`;

/** Formats without a prefix, recognised by a name near them. */
const NAMED: readonly VendorDetector[] = [
	{
		// 32 hex digits (API key) or 40 (application key): an MD5 or a git SHA unless Datadog is named first.
		kind: "datadog-api-key",
		prefix: DATADOG_NAME,
		secret: `(?<![A-Za-z0-9])(?:[a-f0-9]{40}|[a-f0-9]{32})(?![A-Za-z0-9])`,
	},
	{
		// Outside an `aws_secret_access_key =` assignment: 40 base64 characters after "AWS" (`aws configure`'s
		// prompt, a JSON "aws" block). Anchored on the name: a scan for bare 40-character runs would stop at
		// every git SHA.
		kind: "aws-secret-access-key",
		prefix: `(?:(?:aws|AWS|Aws)(?<![A-Za-z]...)(?![a-z])|[Aa]mazon)[^\\d]{0,64}?(?<![A-Za-z0-9/+_-])`,
		secret: "[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_-])",
		refine: refineAwsSecret,
	},
];

/** The vendor detectors, in scan order (prefixed formats first: a named format must not hide one). */
export const VENDOR_DETECTORS: readonly VendorDetector[] = [...PREFIXED, ...NAMED];

/**
 * A secret key right after an access key id (a credentials CSV or TSV, `id secret` pairs), found from the
 * id's end: a pattern of its own would be tried at every comma of every text.
 */
export const AWS_SECRET_AFTER_KEY_ID: Companion = {
	kind: "aws-secret-access-key",
	regex: /["']?[,;|\t ]{1,3}["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=_-])/dy,
	accept: isAwsSecret,
};
