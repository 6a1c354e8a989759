import type { Token, Tokens } from "marked";

/** How each markdown part is styled; without colour, only bold, italic, underline, dim and strike. */
export interface MarkdownStyle {
	readonly colour: boolean;
	readonly bold: (text: string) => string;
	readonly italic: (text: string) => string;
	readonly underline: (text: string) => string;
	readonly strike: (text: string) => string;
	readonly dim: (text: string) => string;
	readonly heading: (text: string, depth: number) => string;
	readonly code: (text: string) => string;
	readonly marker: (text: string) => string;
	readonly link: (text: string) => string;
}

const sgr = (open: string, close: string) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

/** The styles for a terminal with colour, or (NO_COLOR) without. */
export function markdownStyle(colour: boolean): MarkdownStyle {
	const bold = sgr("1", "22");
	const underline = sgr("4", "24");
	const fg = (code: string) => (colour ? sgr(code, "39") : plain);
	const magenta = fg("35");
	return {
		colour,
		bold,
		italic: sgr("3", "23"),
		underline,
		strike: sgr("9", "29"),
		dim: sgr("2", "22"),
		heading: (text, depth) =>
			depth === 1 ? bold(underline(magenta(text))) : depth === 2 ? bold(magenta(text)) : bold(text),
		code: fg("33"),
		marker: fg("36"),
		link: (text) => underline(fg("34")(text)),
	};
}

/** Undoes the HTML entities marked leaves in inline text. */
export function decodeEntities(text: string): string {
	return text
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, "&");
}

/** Inline tokens (emphasis, code spans, links…) as styled text; line breaks stay `\n`. */
export function renderInline(tokens: readonly Token[] | undefined, fallback: string, style: MarkdownStyle): string {
	if (!tokens) return decodeEntities(fallback);
	let out = "";
	for (const token of tokens) {
		switch (token.type) {
			case "strong":
				out += style.bold(renderInline((token as Tokens.Strong).tokens, token.raw, style));
				break;
			case "em":
				out += style.italic(renderInline((token as Tokens.Em).tokens, token.raw, style));
				break;
			case "del":
				out += style.strike(renderInline((token as Tokens.Del).tokens, token.raw, style));
				break;
			case "codespan":
				out += style.code(decodeEntities((token as Tokens.Codespan).text));
				break;
			case "link": {
				const link = token as Tokens.Link;
				const text = renderInline(link.tokens, link.text, style);
				out += link.href && link.href !== link.text ? `${style.link(text)} (${link.href})` : text;
				break;
			}
			case "image": {
				const image = token as Tokens.Image;
				out += `[image: ${decodeEntities(image.text)}] (${image.href})`;
				break;
			}
			case "br":
				out += "\n";
				break;
			case "text":
			case "escape": {
				const text = token as Tokens.Text;
				out += text.tokens ? renderInline(text.tokens, text.text, style) : decodeEntities(text.text);
				break;
			}
			default:
				out += decodeEntities(token.raw);
		}
	}
	return out;
}
