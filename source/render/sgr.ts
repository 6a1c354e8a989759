/**
 * SGR (Select Graphic Rendition, `ESC [ … m`) bookkeeping for our own styled text: which styles
 * are open at the end of a line (so every rendered line can stand alone, the way a viewport that
 * draws any slice of lines needs them), and which parameters are colours (for NO_COLOR).
 */

// Built from code points: a literal ESC inside a regex literal trips the linter.
const ESC = String.fromCharCode(27);
/** One SGR sequence; group 1 holds its parameters. */
export const SGR_PATTERN = new RegExp(`${ESC}\\[([0-9;:]*)m`, "g");

/** The style groups a parameter belongs to; each group has one "off" parameter. */
type Group = "weight" | "italic" | "underline" | "inverse" | "strike" | "fg" | "bg";

const OFF: Record<Group, string> = {
	weight: "22",
	italic: "23",
	underline: "24",
	inverse: "27",
	strike: "29",
	fg: "39",
	bg: "49",
};

/** Splits SGR parameters into single attributes (`38;5;208` stays one attribute). */
function attributes(params: string): string[] {
	const parts = params === "" ? ["0"] : params.split(";");
	const out: string[] = [];
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i] ?? "";
		if ((part === "38" || part === "48" || part === "58") && parts[i + 1] === "5") {
			out.push(parts.slice(i, i + 3).join(";"));
			i += 2;
		} else if ((part === "38" || part === "48" || part === "58") && parts[i + 1] === "2") {
			out.push(parts.slice(i, i + 5).join(";"));
			i += 4;
		} else {
			out.push(part);
		}
	}
	return out;
}

/** The group an attribute sets or clears; undefined for reset and unknown ones. */
function groupOf(attribute: string): { group: Group; off: boolean } | undefined {
	const code = Number(attribute.split(/[;:]/)[0]);
	if (code === 1 || code === 2) return { group: "weight", off: false };
	if (code === 22) return { group: "weight", off: true };
	if (code === 3) return { group: "italic", off: false };
	if (code === 23) return { group: "italic", off: true };
	if (code === 4) return { group: "underline", off: false };
	if (code === 24) return { group: "underline", off: true };
	if (code === 7) return { group: "inverse", off: false };
	if (code === 27) return { group: "inverse", off: true };
	if (code === 9) return { group: "strike", off: false };
	if (code === 29) return { group: "strike", off: true };
	if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return { group: "fg", off: false };
	if (code === 39) return { group: "fg", off: true };
	if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return { group: "bg", off: false };
	if (code === 49) return { group: "bg", off: true };
	return undefined;
}

/** True for an attribute that sets or clears a colour (foreground, background, underline colour). */
export function isColourAttribute(attribute: string): boolean {
	const code = Number(attribute.split(/[;:]/)[0]);
	return (code >= 30 && code <= 49) || (code >= 90 && code <= 107) || code === 58 || code === 59;
}

/**
 * Makes every line stand alone: styles still open at a line's end are closed there and reopened at
 * the start of the next line. The terminal shows the same thing; a slice of the lines now does too.
 */
export function selfContainedLines(lines: readonly string[]): string[] {
	// Open attributes per group, in the order they were set (bold and dim share the weight group).
	let open = new Map<Group, string[]>();
	return lines.map((line) => {
		const reopen = [...open.values()].flat();
		for (const match of line.matchAll(SGR_PATTERN)) {
			for (const attribute of attributes(match[1] ?? "")) {
				if (attribute === "0" || attribute === "") {
					open = new Map();
					continue;
				}
				const found = groupOf(attribute);
				if (!found) continue;
				if (found.off) open.delete(found.group);
				else if (found.group === "weight") open.set("weight", [...(open.get("weight") ?? []), attribute]);
				else open.set(found.group, [attribute]);
			}
		}
		const prefix = reopen.length > 0 ? `${ESC}[${reopen.join(";")}m` : "";
		const closes = [...open.keys()].map((group) => OFF[group]);
		const suffix = closes.length > 0 ? `${ESC}[${closes.join(";")}m` : "";
		return prefix + line + suffix;
	});
}

/** The text with every colour attribute taken out of its SGR sequences (bold, dim, inverse… stay). */
export function stripColour(text: string): string {
	return text.replace(SGR_PATTERN, (sequence, params: string) => {
		const all = attributes(params);
		const kept = all.filter((attribute) => !isColourAttribute(attribute));
		if (kept.length === all.length) return sequence;
		return kept.length > 0 ? `${ESC}[${kept.join(";")}m` : "";
	});
}
