/** Most lines a tool result shows before it is cut. */
export const DEFAULT_MAX_LINES = 2000;

/** Most bytes (UTF-8) a tool result shows before it is cut. */
export const DEFAULT_MAX_BYTES = 50 * 1024;

/** Limits for a truncation; both apply, whichever is hit first wins. */
export interface TruncationLimits {
	readonly maxLines?: number;
	readonly maxBytes?: number;
}

/** The kept part of a text and how it relates to the whole. */
export type TruncationResult =
	| { readonly truncated: false; readonly content: string; readonly totalLines: number; readonly totalBytes: number }
	| {
			readonly truncated: true;
			readonly content: string;
			readonly totalLines: number;
			readonly totalBytes: number;
			/** Which limit cut the text. */
			readonly truncatedBy: "lines" | "bytes";
			/** Whole or partial lines kept. */
			readonly keptLines: number;
			/** True when a single line was longer than maxBytes and only part of it is kept. */
			readonly partialLine: boolean;
	  };

/** Human-readable byte size, e.g. `512 B`, `50.0 KB`, `1.2 MB`. */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Splits text into lines; a trailing newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

/** Keeps the first lines of `text` that fit the limits (file reads: the start matters). */
export function truncateHead(text: string, limits: TruncationLimits = {}): TruncationResult {
	return truncate(text, limits, "head");
}

/** Keeps the last lines of `text` that fit the limits (command output: the end matters). */
export function truncateTail(text: string, limits: TruncationLimits = {}): TruncationResult {
	return truncate(text, limits, "tail");
}

function truncate(text: string, limits: TruncationLimits, from: "head" | "tail"): TruncationResult {
	const maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
	const lines = splitLines(text);
	const totalBytes = Buffer.byteLength(text, "utf8");
	const totalLines = lines.length;
	if (totalLines <= maxLines && totalBytes <= maxBytes) {
		return { truncated: false, content: text, totalLines, totalBytes };
	}

	const ordered = from === "head" ? lines : [...lines].reverse();
	const kept: string[] = [];
	let bytes = 0;
	let truncatedBy: "lines" | "bytes" = "lines";
	for (const line of ordered) {
		if (kept.length >= maxLines) break;
		// Every kept line but the very last one in the text carries its newline.
		const lineBytes = Buffer.byteLength(line, "utf8") + 1;
		if (bytes + lineBytes > maxBytes) {
			truncatedBy = "bytes";
			break;
		}
		kept.push(line);
		bytes += lineBytes;
	}

	if (kept.length === 0 && ordered.length > 0) {
		// One line alone is over the byte limit: keep the part of it nearest the kept end.
		const line = ordered[0] ?? "";
		const content = from === "head" ? utf8Prefix(line, maxBytes) : utf8Suffix(line, maxBytes);
		return { truncated: true, content, totalLines, totalBytes, truncatedBy: "bytes", keptLines: 1, partialLine: true };
	}

	const inOrder = from === "head" ? kept : kept.reverse();
	return {
		truncated: true,
		content: inOrder.join("\n"),
		totalLines,
		totalBytes,
		truncatedBy,
		keptLines: kept.length,
		partialLine: false,
	};
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
	const buffer = Buffer.from(text, "utf8");
	if (buffer.length <= maxBytes) return text;
	let end = maxBytes;
	// Back up over continuation bytes (10xxxxxx) so the cut lands on a character start.
	while (end > 0 && ((buffer[end] ?? 0) & 0xc0) === 0x80) end--;
	return buffer.subarray(0, end).toString("utf8");
}

/** The longest suffix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function utf8Suffix(text: string, maxBytes: number): string {
	const buffer = Buffer.from(text, "utf8");
	if (buffer.length <= maxBytes) return text;
	let start = buffer.length - maxBytes;
	while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
	return buffer.subarray(start).toString("utf8");
}
