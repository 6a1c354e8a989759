/// <reference lib="dom" />
import hljs from "highlight.js/lib/common";
import { Marked, type Tokens } from "marked";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Link targets that cannot run script or leave the page unannounced. */
const SAFE_LINK = /^(?:https?:|mailto:|#)/i;
/** Only inline raster images render as images; anything else would load from the network. */
const SAFE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/]+=*$/i;
/** Above this size auto-detection (which tries every language) costs more than it is worth. */
const AUTO_DETECT_MAX = 4000;
/** highlight.js does a few MB/s: a huge block (up to the 500k persisted maximum) stays plain. */
const HIGHLIGHT_MAX = 100_000;

function highlight(code: string, lang: string): string {
	if (code.length > HIGHLIGHT_MAX) return escapeHtml(code);
	const name = lang.trim().split(/\s+/)[0] ?? "";
	if (name && hljs.getLanguage(name)) return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
	if (!name && code.length <= AUTO_DETECT_MAX) return hljs.highlightAuto(code).value;
	return escapeHtml(code);
}

const marked = new Marked({
	gfm: true,
	breaks: false,
	renderer: {
		// Raw HTML in a message is shown as the text it is, never parsed.
		html({ text }: Tokens.HTML | Tokens.Tag): string {
			return escapeHtml(text);
		},
		link({ href, title, tokens }: Tokens.Link): string {
			const inner = this.parser.parseInline(tokens);
			if (!SAFE_LINK.test(href.trim())) return inner;
			const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
			return `<a href="${escapeHtml(href.trim())}"${titleAttr} target="_blank" rel="noopener noreferrer">${inner}</a>`;
		},
		image({ href, title, text }: Tokens.Image): string {
			const url = href.trim();
			if (SAFE_IMAGE.test(url)) {
				const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
				return `<img src="${escapeHtml(url)}" alt="${escapeHtml(text)}"${titleAttr}>`;
			}
			// A remote image would be a network request: offer it as a link instead.
			if (/^https?:/i.test(url))
				return `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${escapeHtml(text || url)}</a>`;
			return escapeHtml(text);
		},
		code({ text, lang }: Tokens.Code): string {
			const name = (lang ?? "").replace(/[^\w+#.-]/g, "");
			const cls = name ? ` language-${name}` : "";
			return `<pre><code class="hljs${cls}">${highlight(text, name)}</code></pre>\n`;
		},
	},
});

const ALLOWED_TAGS: ReadonlySet<string> = new Set(
	"a b blockquote br code del em h1 h2 h3 h4 h5 h6 hr i img input li ol p pre span strong table tbody td th thead tr ul".split(
		" ",
	),
);
const ALLOWED_ATTRIBUTES: ReadonlySet<string> = new Set([
	"href",
	"title",
	"target",
	"rel",
	"src",
	"alt",
	"class",
	"align",
	"start",
	"type",
	"checked",
	"disabled",
]);

/**
 * Second line of defence after the renderer: drops any element or attribute marked could have
 * produced outside the allow-list (the template's content is inert while we walk it).
 */
function sanitize(root: DocumentFragment): void {
	const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
	const doomed: Element[] = [];
	for (let node = walker.nextNode(); node; node = walker.nextNode()) {
		const element = node as Element;
		if (!ALLOWED_TAGS.has(element.localName)) {
			doomed.push(element);
			continue;
		}
		for (const attribute of [...element.attributes]) {
			const name = attribute.name.toLowerCase();
			const value = attribute.value.trim();
			const bad =
				!ALLOWED_ATTRIBUTES.has(name) ||
				(name === "href" && !SAFE_LINK.test(value)) ||
				(name === "src" && !SAFE_IMAGE.test(value));
			if (bad) element.removeAttribute(attribute.name);
		}
	}
	for (const element of doomed) element.replaceWith(document.createTextNode(element.textContent ?? ""));
}

/** Markdown → sanitised DOM (code highlighted with highlight.js). */
export function renderMarkdown(text: string): DocumentFragment {
	const template = document.createElement("template");
	template.innerHTML = marked.parse(text, { async: false });
	sanitize(template.content);
	return template.content;
}
