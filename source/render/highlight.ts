/** The part of highlight.js the renderer uses. */
export interface Highlighter {
	getLanguage(name: string): unknown;
	highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
}

/** hljs scope → SGR foreground colour. */
const SCOPE_COLOURS: Record<string, string> = {
	keyword: "35",
	built_in: "36",
	type: "36",
	literal: "33",
	number: "33",
	string: "32",
	regexp: "32",
	comment: "2",
	meta: "2",
	title: "34",
	function: "34",
	params: "0",
	attr: "33",
	attribute: "33",
	variable: "31",
	symbol: "33",
	tag: "34",
	name: "34",
	"selector-tag": "35",
	addition: "32",
	deletion: "31",
};

const ENTITIES: Record<string, string> = {
	"&lt;": "<",
	"&gt;": ">",
	"&quot;": '"',
	"&#x27;": "'",
	"&#39;": "'",
	"&amp;": "&",
};

function colourFor(classes: string): string | undefined {
	for (const cls of classes.split(/\s+/)) {
		const scope = cls.replace(/^hljs-/, "").split(".")[0]!;
		const colour = SCOPE_COLOURS[scope];
		if (colour) return colour;
	}
	return undefined;
}

/** Turns highlight.js HTML into ANSI: a stack of open spans, each restoring its parent's colour on close. */
export function htmlToAnsi(html: string): string {
	const stack: string[] = [];
	let out = "";
	const pattern = /<span class="([^"]*)">|<\/span>|&[#a-z0-9]+;|[^<&]+/gi;
	for (const match of html.matchAll(pattern)) {
		const token = match[0];
		if (token.startsWith("<span")) {
			const colour = colourFor(match[1] ?? "") ?? stack[stack.length - 1] ?? "39";
			stack.push(colour);
			out += `\x1b[${colour === "2" ? "2" : `22;${colour}`}m`;
		} else if (token === "</span>") {
			stack.pop();
			const parent = stack[stack.length - 1];
			out += parent ? `\x1b[${parent === "2" ? "2" : `22;${parent}`}m` : "\x1b[22;39m";
		} else if (token.startsWith("&")) {
			out += ENTITIES[token] ?? token;
		} else {
			out += token;
		}
	}
	return out;
}

/** Highlights code for the terminal; unknown languages come back unstyled. */
export function highlightToAnsi(highlighter: Highlighter, code: string, language: string | undefined): string {
	const lang = language?.trim().split(/\s+/)[0];
	if (!lang || !highlighter.getLanguage(lang)) return code;
	try {
		return htmlToAnsi(highlighter.highlight(code, { language: lang, ignoreIllegals: true }).value);
	} catch {
		return code;
	}
}
