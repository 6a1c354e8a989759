import { createHash } from "node:crypto";

/** The raw text of `<script type="application/json" id="session-data">`. */
export function sessionDataText(html: string): string {
	const match = /<script type="application\/json" id="session-data">([\s\S]*?)<\/script>/.exec(html);
	if (!match) throw new Error("no session-data script");
	return match[1]!;
}

/** The text of every `<script>` element without a type (the executable ones). */
export function inlineScripts(html: string): string[] {
	return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
}

/** The content of the CSP meta element. */
export function cspOf(html: string): string {
	const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
	if (!match) throw new Error("no CSP meta");
	return match[1]!
		.replace(/&#39;/g, "'")
		.replace(/&quot;/g, '"')
		.replace(/&amp;/g, "&");
}

/** The CSP source for a script's text. */
export function sha256Source(text: string): string {
	return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}
