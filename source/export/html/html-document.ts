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
function pageTitle(header: ExportData["header"]): string {
	const title = typeof header.title === "string" && header.title ? header.title : undefined;
	return title ?? `xcsh session ${header.id}`;
}

/** The page up to where the session's data starts: policy, title, styles, the app's mount point. */
export function pageHead(header: ExportData["header"], viewerScript: string): string {
	return [
		"<!DOCTYPE html>",
		'<html lang="en">',
		"<head>",
		'<meta charset="utf-8">',
		`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(viewerScript))}">`,
		'<meta name="referrer" content="no-referrer">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		'<meta name="generator" content="xcsh">',
		`<title>${escapeHtml(pageTitle(header))}</title>`,
		`<style>${EXPORT_CSS}</style>`,
		"</head>",
		"<body>",
		'<div id="app"><noscript>This session export needs JavaScript to display.</noscript></div>',
		"",
	].join("\n");
}

/** The page after the session's data: the viewer, inlined. */
export function pageTail(viewerScript: string): string {
	return `\n<script>${viewerScript}</script>\n</body>\n</html>\n`;
}

/** The whole self-contained page: styles, the session as JSON, and the viewer script inlined. */
export function buildHtmlDocument(data: ExportData, viewerScript: string): string {
	const json = `<script type="application/json" id="session-data">${jsonForScript(data)}</script>`;
	return pageHead(data.header, viewerScript) + json + pageTail(viewerScript);
}
