import type { Token, Tokens } from "marked";
import { colourEnabled } from "./colour.js";
import { type Highlighter, highlightToAnsi } from "./highlight.js";
import { type MarkdownStyle, markdownStyle, renderInline } from "./markdown-style.js";
import { safeText } from "./safe-text.js";
import { selfContainedLines } from "./sgr.js";
import { renderTable } from "./table.js";
import { hang, textWidth, wrapCode, wrapProse } from "./wrap.js";

/** Options for rendering markdown. */
export interface MarkdownOptions {
	/** Columns the lines must fit in. */
	readonly width: number;
	/** Colour escapes allowed (default: unless NO_COLOR is set). */
	readonly colour?: boolean;
}

/** A streaming answer rendered: its lines, of which the first `stable` will not change as it grows. */
export interface StreamedMarkdown {
	readonly lines: readonly string[];
	readonly stable: number;
}

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

interface Context {
	readonly style: MarkdownStyle;
	readonly highlighter: Highlighter;
}

const CODE_INDENT = "  ";
const QUOTE_BAR = "│ ";

function listLines(list: Tokens.List, width: number, context: Context): string[] {
	const start = typeof list.start === "number" ? list.start : 1;
	return list.items.flatMap((item, index) => {
		// Each marker hangs its own item (no padding to the widest number: item 10 must not move item 9).
		const marker = list.ordered ? `${start + index}. ` : "• ";
		const check = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
		const indent = " ".repeat(textWidth(marker));
		const body = blocksLines(
			item.tokens.filter((token) => token.type !== "checkbox"),
			width - indent.length,
			context,
			list.loose,
		);
		const lines = body.length > 0 ? body : [""];
		lines[0] = check + (lines[0] ?? "");
		const hung = hang(lines, context.style.marker(marker), indent);
		return list.loose && index < list.items.length - 1 ? [...hung, ""] : hung;
	});
}

/** One block token as lines no wider than `width` (styles may still cross line ends here). */
function blockLines(token: Token, width: number, context: Context): string[] {
	const { style } = context;
	switch (token.type) {
		case "heading": {
			const heading = token as Tokens.Heading;
			return wrapProse(renderInline(heading.tokens, heading.text, style), width).map((line) =>
				style.heading(line, heading.depth),
			);
		}
		case "paragraph":
			return wrapProse(renderInline((token as Tokens.Paragraph).tokens, token.raw, style), width);
		case "text": {
			const text = token as Tokens.Text;
			return wrapProse(renderInline(text.tokens, text.text, style), width);
		}
		case "code": {
			const code = token as Tokens.Code;
			const body = style.colour ? highlightToAnsi(context.highlighter, code.text, code.lang) : code.text;
			return hang(wrapCode(body, width - CODE_INDENT.length), CODE_INDENT, CODE_INDENT);
		}
		case "blockquote": {
			const inner = blocksLines((token as Tokens.Blockquote).tokens, width - QUOTE_BAR.length, context, true);
			return inner.map((line) => style.dim(QUOTE_BAR) + line);
		}
		case "list":
			return listLines(token as Tokens.List, width, context);
		case "table": {
			const table = token as Tokens.Table;
			return renderTable(
				{
					header: table.header.map((cell) => renderInline(cell.tokens, cell.text, style)),
					rows: table.rows.map((row) => row.map((cell) => renderInline(cell.tokens, cell.text, style))),
					align: table.align,
					headerStyle: style.bold,
					ruleStyle: style.dim,
				},
				width,
			);
		}
		case "hr":
			return [style.dim("─".repeat(Math.max(1, Math.min(width, 40))))];
		case "space":
		case "def":
			return [];
		default:
			return wrapProse(token.raw.trimEnd(), width);
	}
}

/** Block tokens as lines, with one blank line between blocks when `spaced`. */
function blocksLines(tokens: readonly Token[], width: number, context: Context, spaced: boolean): string[] {
	const out: string[] = [];
	for (const token of tokens) {
		const lines = blockLines(token, Math.max(1, width), context);
		if (lines.length === 0) continue;
		if (spaced && out.length > 0) out.push("");
		out.push(...lines);
	}
	return out;
}

// Finished blocks are rendered again on every streamed delta and every redraw: keep their lines.
const CACHE_LIMIT = 2000;
const cache = new Map<string, string[]>();

function topBlockLines(token: Token, width: number, colour: boolean, state: Loaded, keep: boolean): string[] {
	const key = `${width}\u0000${colour ? 1 : 0}\u0000${token.type}\u0000${token.raw}`;
	const cached = cache.get(key);
	if (cached) return cached;
	const context: Context = { style: markdownStyle(colour), highlighter: state.highlighter };
	const lines = selfContainedLines(blockLines(token, Math.max(1, width), context));
	// A block still growing is never asked for twice: keeping it would only push finished ones out.
	if (!keep) return lines;
	if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
	cache.set(key, lines);
	return lines;
}

function joinBlocks(blocks: readonly string[][]): string[] {
	const out: string[] = [];
	for (const lines of blocks) {
		if (lines.length === 0) continue;
		if (out.length > 0) out.push("");
		out.push(...lines);
	}
	return out;
}

/**
 * Markdown as terminal lines no wider than `width`: headings without `#`, code highlighted without
 * fences, aligned tables with a rule under the header, lists with hanging indents. The text is
 * made safe first, so our styling is the only escape codes in the result; every line stands alone.
 */
export function renderMarkdownLines(markdown: string, options: MarkdownOptions): string[] {
	return renderStreamingMarkdown(markdown, options).lines.slice();
}

/**
 * Markdown that is still arriving. It is cut at the last safe point, the start of the last block:
 * every block before it is final, and renders exactly as it will once the answer is complete (the
 * first `stable` lines); the last block is rendered as it stands, and may still change. The whole
 * answer, rendered this way, equals `renderMarkdownLines` of it: nothing jumps at the end.
 */
export function renderStreamingMarkdown(markdown: string, options: MarkdownOptions): StreamedMarkdown {
	const text = safeText(markdown);
	const colour = options.colour ?? colourEnabled();
	const state = loaded;
	if (!state) {
		const lines = wrapProse(text.trimEnd(), options.width);
		return { lines, stable: 0 };
	}
	const tokens = state.lexer(text);
	let last = tokens.length - 1;
	while (last >= 0 && tokens[last]?.type === "space") last--;
	const stableBlocks = tokens
		.slice(0, Math.max(0, last))
		.map((t) => topBlockLines(t, options.width, colour, state, true));
	const stable = joinBlocks(stableBlocks);
	const tail = last >= 0 ? tokens[last] : undefined;
	const lines = joinBlocks(
		tail ? [...stableBlocks, topBlockLines(tail, options.width, colour, state, false)] : stableBlocks,
	);
	return { lines, stable: stable.length };
}
