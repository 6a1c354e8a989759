import stringWidth from "string-width";

const segmenter = new Intl.Segmenter();

/** Cuts a string to `width` terminal columns (wide characters count two) with an ellipsis. */
export function clip(text: string, width: number): string {
	// Every character takes at least one column (or none): a short string needs no measuring.
	if (text.length <= width || stringWidth(text) <= width) return text;
	const room = Math.max(0, width - 1);
	let used = 0;
	let out = "";
	for (const { segment } of segmenter.segment(text)) {
		const w = stringWidth(segment);
		if (used + w > room) break;
		used += w;
		out += segment;
	}
	return `${out}…`;
}
