/// <reference lib="dom" />
import { arr, num, rec, str, type ViewEntry } from "./data.js";
import { el } from "./dom.js";
import { formatTime } from "./message-view.js";

/** What a restore brought back, in words. */
const RESTORED: Readonly<Record<string, string>> = {
	both: "code and conversation",
	code: "code",
	conversation: "conversation",
};

interface FileRow {
	readonly path: string;
	readonly status: string;
	readonly counts: string;
	readonly added: number;
	readonly removed: number;
}

function fileRows(data: Readonly<Record<string, unknown>>): FileRow[] {
	const rows: FileRow[] = [];
	for (const item of arr(data.files)) {
		const file = rec(item);
		const path = str(file?.path);
		if (!file || path === undefined) continue;
		const added = num(file.added) ?? 0;
		const removed = num(file.removed) ?? 0;
		rows.push({
			path,
			status: str(file.status) ?? "changed",
			counts: file.binary === true ? "binary" : `+${added} −${removed}`,
			added,
			removed,
		});
	}
	return rows;
}

/**
 * A file checkpoint on the shown path (a `custom` entry with `customType: "checkpoint"`): the
 * files a turn changed as an expandable list with +/− counts and, when the export found the
 * project's store, the turn's diff; or a line for a restore; undefined
 * for the baseline, which is nothing to read.
 */
export function checkpointElement(entry: ViewEntry): HTMLElement | undefined {
	const data = rec(entry.raw.data);
	if (!data) return undefined;
	if (data.kind === "restore") {
		const node = el("div", "entry event checkpoint", `Files restored (${RESTORED[str(data.mode) ?? ""] ?? "?"})`);
		node.dataset.id = entry.id;
		return node;
	}
	if (data.kind !== "turn") return undefined;
	const files = fileRows(data);
	if (files.length === 0) return undefined;
	const added = files.reduce((sum, f) => sum + f.added, 0);
	const removed = files.reduce((sum, f) => sum + f.removed, 0);
	const box = el("details", "entry files-changed");
	box.dataset.id = entry.id;
	const time = formatTime(entry.timestamp);
	if (time) box.title = time;
	const plural = files.length === 1 ? "" : "s";
	box.append(el("summary", undefined, `Files changed: ${files.length} file${plural} (+${added} −${removed})`));
	const list = el("ul", "file-list");
	for (const file of files) {
		const item = el("li");
		item.append(el("code", undefined, file.path), el("span", "note", ` ${file.status} ${file.counts}`));
		list.append(item);
	}
	box.append(list);
	const diff = str(entry.raw.diff);
	if (diff) {
		let shown = false;
		box.addEventListener("toggle", () => {
			if (shown || !box.open) return;
			shown = true;
			box.append(diffElement(diff));
		});
	}
	return box;
}

/** The class of a unified diff's line: added, removed, a hunk head, a file head, or context. */
function diffLineClass(line: string): string | undefined {
	if (line.startsWith("+++") || line.startsWith("---")) return "meta";
	if (line.startsWith("+")) return "add";
	if (line.startsWith("-")) return "del";
	if (line.startsWith("@@")) return "hunk";
	if (
		line.startsWith("diff ") ||
		line.startsWith("index ") ||
		line.startsWith("new file") ||
		line.startsWith("deleted file")
	)
		return "meta";
	return undefined;
}

/** A turn's unified diff, a line per span, coloured by kind (built only when the list is opened). */
function diffElement(diff: string): HTMLElement {
	const block = el("pre", "diff");
	for (const line of diff.replace(/\n$/, "").split("\n")) block.append(el("span", diffLineClass(line), line));
	return block;
}
