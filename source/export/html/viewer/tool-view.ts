/// <reference lib="dom" />
import { argsSummary, argsText, blocksOf, imageDataUrl, messageOf } from "./content.js";
import { str, type ViewEntry } from "./data.js";
import { el, lazyDetails, oneLine, pre } from "./dom.js";

/** An image block as an <img> (data: URL), or a note when the type or data is not a safe raster image. */
export function imageElement(mimeType: string, data: string): HTMLElement {
	const url = imageDataUrl(mimeType, data);
	if (!url) return el("div", "note", `[image not shown: ${oneLine(mimeType || "unknown type", 60)}]`);
	const image = el("img", "message-image");
	image.alt = mimeType;
	image.src = url;
	return image;
}

/** The content of a tool result: text as preformatted text, images inline. */
export function toolResultBody(result: ViewEntry): HTMLElement {
	const message = messageOf(result) ?? {};
	const body = el("div", "tool-output");
	const blocks = blocksOf(message.content);
	for (const block of blocks) {
		if (block.kind === "text") body.append(pre(block.text));
		else if (block.kind === "image") body.append(imageElement(block.mimeType, block.data));
	}
	if (blocks.length === 0) body.append(el("div", "note", "(no output)"));
	return body;
}

function isError(result: ViewEntry | undefined): boolean {
	return result !== undefined && messageOf(result)?.isError === true;
}

function summaryLine(name: string, detail: string, status: string): HTMLElement {
	const line = el("span", "tool-summary");
	line.append(
		el("span", "tool-name", name),
		el("span", "tool-args", oneLine(detail, 160)),
		el("span", "tool-status", status),
	);
	return line;
}

/** A tool call with its result (when it is on the shown path), collapsed until opened. */
export function toolCallElement(name: string, args: unknown, result: ViewEntry | undefined): HTMLDetailsElement {
	const status = result === undefined ? "no result" : isError(result) ? "error" : "ok";
	const details = lazyDetails(
		`tool-call${isError(result) ? " error" : ""}`,
		summaryLine(name, argsSummary(args), status),
		() => {
			const body = el("div", "tool-body");
			const text = argsText(args);
			if (text) body.append(el("div", "tool-heading", "Arguments"), pre(text, "tool-args-json"));
			if (result) body.append(el("div", "tool-heading", "Result"), toolResultBody(result));
			return body;
		},
	);
	if (result) details.dataset.resultId = result.id;
	return details;
}

/** A tool result whose call is not on the shown path. */
export function orphanResultElement(result: ViewEntry): HTMLDetailsElement {
	const message = messageOf(result) ?? {};
	const name = str(message.toolName) ?? "tool";
	const status = isError(result) ? "error" : "ok";
	return lazyDetails(`tool-call${isError(result) ? " error" : ""}`, summaryLine(name, "result", status), () =>
		toolResultBody(result),
	);
}
