import { createHash } from "node:crypto";
import type { ExportData } from "./export-data.js";
import { EXPORT_CSS } from "./styles.js";

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = {
	"<": "\\u003c",
	">": "\\u003e",
	"&": "\\u0026",
	"\u2028": "\\u2028",
	"\u2029": "\\u2029",
};

/**
 * JSON that is safe inside a `<script>` element: with `<` escaped no `</script>` or `<!--` can
 * end or confuse the element, and the escapes are still valid JSON, so JSON.parse reads it back.
 */
export function jsonForScript(value: unknown): string {
	return JSON.stringify(value).replace(SCRIPT_UNSAFE, (c) => SCRIPT_ESCAPES[c] ?? c);
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** The CSP `script-src` source for an inline script: the base64 sha256 of its exact text. */
export function scriptHash(code: string): string {
	return `sha256-${createHash("sha256").update(code, "utf8").digest("base64")}`;
}

/**
 * The page's policy: nothing may load from anywhere (images only from data: URLs) and the only
 * script that may run is the viewer, by hash, so even markup that slipped through could not run.
 */
export function contentSecurityPolicy(code: string): string {
	return `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src '${scriptHash(code)}'; base-uri 'none'; form-action 'none'`;
}

/** The page title: the session title, else its id. */
function pageTitle(data: ExportData): string {
	const title = typeof data.header.title === "string" && data.header.title ? data.header.title : undefined;
	return title ?? `xcsh session ${data.header.id}`;
}

/** The whole self-contained page: styles, the session as JSON, and the viewer script inlined. */
export function buildHtmlDocument(data: ExportData, viewerScript: string): string {
	return [
		"<!DOCTYPE html>",
		'<html lang="en">',
		"<head>",
		'<meta charset="utf-8">',
		`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(viewerScript))}">`,
		'<meta name="referrer" content="no-referrer">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		'<meta name="generator" content="xcsh">',
		`<title>${escapeHtml(pageTitle(data))}</title>`,
		`<style>${EXPORT_CSS}</style>`,
		"</head>",
		"<body>",
		'<div id="app"><noscript>This session export needs JavaScript to display.</noscript></div>',
		`<script type="application/json" id="session-data">${jsonForScript(data)}</script>`,
		`<script>${viewerScript}</script>`,
		"</body>",
		"</html>",
		"",
	].join("\n");
}
