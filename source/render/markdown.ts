import type { Token, Tokens } from "marked";
import { type Highlighter, highlightToAnsi } from "./highlight.js";
import { safeText } from "./safe-text.js";

/** SGR codes used for terminal markdown. */
const SGR = {
	reset: "\x1b[0m",
	bold: "\x1b[1m",
	dim: "\x1b[2m",
	italic: "\x1b[3m",
	underline: "\x1b[4m",
	boldOff: "\x1b[22m",
	italicOff: "\x1b[23m",
	underlineOff: "\x1b[24m",
	cyan: "\x1b[36m",
	yellow: "\x1b[33m",
	magenta: "\x1b[35m",
	blue: "\x1b[34m",
	fgOff: "\x1b[39m",
} as const;

interface Loaded {
	lexer: (text: string) => Token[];
	highlighter: Highlighter;
}

let loaded: Loaded | undefined;
let loading: Promise<void> | undefined;

/** Loads marked and highlight.js (after the first frame: they are not needed to start). */
export function loadMarkdown(): Promise<void> {
	loading ??= (async () => {
		const [{ marked }, hljs] = await Promise.all([import("marked"), import("highlight.js/lib/common")]);
		loaded = { lexer: (text) => marked.lexer(text), highlighter: hljs.default };
	})();
	return loading;
}

/** True once `loadMarkdown` finished; before that `renderMarkdown` returns the text as is. */
export function isMarkdownLoaded(): boolean {
	return loaded !== undefined;
}

function inline(tokens: readonly Token[] | undefined, fallback: string): string {
	if (!tokens) return fallback;
	let out = "";
	for (const token of tokens) {
		switch (token.type) {
			case "strong":
				out += `${SGR.bold}${inline((token as Tokens.Strong).tokens, token.raw)}${SGR.boldOff}`;
				break;
			case "em":
				out += `${SGR.italic}${inline((token as Tokens.Em).tokens, token.raw)}${SGR.italicOff}`;
				break;
			case "codespan":
				out += `${SGR.yellow}${decode((token as Tokens.Codespan).text)}${SGR.fgOff}`;
				break;
			case "link": {
				const link = token as Tokens.Link;
				const text = inline(link.tokens, link.text);
				out +=
					link.href && link.href !== link.text ? `${SGR.underline}${text}${SGR.underlineOff} (${link.href})` : text;
				break;
			}
			case "del":
				out += `~${inline((token as Tokens.Del).tokens, token.raw)}~`;
				break;
			case "br":
				out += "\n";
				break;
			case "text":
			case "escape": {
				const text = token as Tokens.Text;
				out += text.tokens ? inline(text.tokens, text.text) : decode(text.text);
				break;
			}
			default:
				out += decode(token.raw);
		}
	}
	return out;
}

function decode(text: string): string {
	return text
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, "&");
}

function block(token: Token, state: Loaded): string {
	switch (token.type) {
		case "heading": {
			const heading = token as Tokens.Heading;
			return `${SGR.bold}${SGR.magenta}${"#".repeat(heading.depth)} ${inline(heading.tokens, heading.text)}${SGR.fgOff}${SGR.boldOff}`;
		}
		case "paragraph":
			return inline((token as Tokens.Paragraph).tokens, (token as Tokens.Paragraph).text);
		case "code": {
			const code = token as Tokens.Code;
			const body = highlightToAnsi(state.highlighter, code.text, code.lang);
			const fence = `${SGR.dim}\`\`\`${code.lang ?? ""}${SGR.reset}`;
			return `${fence}\n${body}\n${SGR.dim}\`\`\`${SGR.reset}`;
		}
		case "blockquote": {
			const quote = token as Tokens.Blockquote;
			const inner = quote.tokens.map((t) => block(t, state)).join("\n");
			return inner
				.split("\n")
				.map((line) => `${SGR.dim}│${SGR.reset} ${line}`)
				.join("\n");
		}
		case "list": {
			const list = token as Tokens.List;
			const start = typeof list.start === "number" ? list.start : 1;
			return list.items
				.map((item, i) => {
					const marker = list.ordered ? `${start + i}.` : "•";
					const check = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
					const body = item.tokens
						.map((t) =>
							t.type === "text" ? inline((t as Tokens.Text).tokens, (t as Tokens.Text).text) : block(t, state),
						)
						.join("\n");
					return `${SGR.cyan}${marker}${SGR.fgOff} ${check}${body.replace(/\n/g, "\n  ")}`;
				})
				.join("\n");
		}
		case "hr":
			return `${SGR.dim}${"─".repeat(40)}${SGR.reset}`;
		case "table": {
			const table = token as Tokens.Table;
			const rows = [
				table.header.map((c) => inline(c.tokens, c.text)),
				...table.rows.map((r) => r.map((c) => inline(c.tokens, c.text))),
			];
			return rows.map((r, i) => (i === 0 ? `${SGR.bold}${r.join(" │ ")}${SGR.boldOff}` : r.join(" │ "))).join("\n");
		}
		case "space":
			return "";
		case "html":
			return token.raw.trimEnd();
		default:
			return token.raw.trimEnd();
	}
}

/**
 * Markdown as ANSI-styled terminal text (headings, emphasis, lists, quotes, highlighted code).
 * The text is made safe first: our styling is the only escape codes in the result.
 */
export function renderMarkdown(markdown: string): string {
	const text = safeText(markdown);
	if (!loaded) return text;
	const state = loaded;
	return state
		.lexer(text)
		.map((t) => block(t, state))
		.filter((s, i, all) => s !== "" || (i > 0 && all[i - 1] !== ""))
		.join("\n")
		.replace(/\n{3,}/g, "\n\n")
		.trimEnd();
}
