import { lstat, open, realpath, stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { getSessionsRoot } from "../agent-dir.js";
import { isSessionHeader } from "../session/session-loader.js";

/** What an export can be written as. */
export type ExportFormat = "html" | "md" | "json" | "pi" | "atif" | "openai-sft";

/** The formats written as JSON lines (a session's own extension is allowed for them). */
export type JsonlFormat = "pi" | "atif" | "openai-sft";

/** Every format, in the order help and errors list them. */
export const EXPORT_FORMATS: readonly ExportFormat[] = ["html", "md", "json", "pi", "atif", "openai-sft"];

/** The names each format may be written to; the first is the default name's. */
const EXTENSIONS: Record<ExportFormat, readonly string[]> = {
	html: [".html", ".htm"],
	md: [".md", ".markdown"],
	json: [".json"],
	pi: [".jsonl"],
	// One trajectory is a JSON file (as Harbor writes trajectory.json); several are one per line.
	atif: [".jsonl", ".json"],
	"openai-sft": [".jsonl"],
};

/** The formats a name alone implies: a .jsonl name could be a session, so it never implies one. */
const IMPLIED: readonly ExportFormat[] = ["html", "md", "json"];

const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(Object.values(EXTENSIONS).flat());

/** True for the JSON-lines formats. */
export function isJsonlFormat(format: ExportFormat): format is JsonlFormat {
	return format === "pi" || format === "atif" || format === "openai-sft";
}

/** "html, md, json, pi, atif or openai-sft". */
function formatList(): string {
	return `${EXPORT_FORMATS.slice(0, -1).join(", ")} or ${EXPORT_FORMATS.at(-1)}`;
}

/** The format an output name implies, or undefined for any other extension (or none, or .jsonl). */
export function formatOfExtension(path: string): ExportFormat | undefined {
	const ext = extname(path).toLowerCase();
	return IMPLIED.find((format) => EXTENSIONS[format].includes(ext));
}

/**
 * The format of an export from `--format` and the output's name. Without `--format` the extension
 * decides and anything but .html/.htm/.md/.markdown/.json is refused (it used to fall back to HTML,
 * which turned `--export a.jsonl b.jsonl` into overwriting a session). With `--format` any unknown
 * extension (`notes.txt`) is accepted, because the person named the format; the extension of
 * another format is refused, and `.jsonl` is only for the JSON-lines formats (pi, atif,
 * openai-sft) — the target checks still refuse any file that holds a session.
 */
export function chooseExportFormat(
	output: string | undefined,
	requested: string | undefined,
): { format: ExportFormat } | { error: string } {
	if (requested !== undefined && !EXPORT_FORMATS.includes(requested as ExportFormat))
		return { error: `--format takes ${formatList()} (got "${requested}")` };
	const explicit = requested as ExportFormat | undefined;
	if (output === undefined) return { format: explicit ?? "html" };
	const name = basename(output);
	const ext = extname(name).toLowerCase();
	if (explicit === undefined) {
		if (ext === ".jsonl")
			return {
				error: `Refusing to write an export to ${name}: .jsonl is the session format; use .html, .md or .json, or --format pi|atif|openai-sft`,
			};
		const implied = formatOfExtension(name);
		if (implied) return { format: implied };
		return {
			error: `Cannot tell the export format from ${name}: use a .html, .md or .json name, or --format ${EXPORT_FORMATS.join("|")}`,
		};
	}
	if (KNOWN_EXTENSIONS.has(ext) && !EXTENSIONS[explicit].includes(ext))
		return { error: `${name} does not match --format ${explicit}: use a ${EXTENSIONS[explicit].join(" or ")} name` };
	return { format: explicit };
}

/**
 * The real path a name would have: symlinks of every existing ancestor resolved, then the missing
 * rest appended (the file, and folders `/export "new dir/x.html"` will create, may not exist yet).
 */
export async function realTarget(path: string): Promise<string> {
	const absolute = resolve(path);
	const missing: string[] = [];
	let current = absolute;
	for (;;) {
		try {
			return join(await realpath(current), ...missing);
		} catch {
			const parent = dirname(current);
			if (parent === current) return absolute;
			missing.unshift(basename(current));
			current = parent;
		}
	}
}

function isInside(child: string, folder: string): boolean {
	const rel = relative(folder, child);
	return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** True when `path` is a file whose first non-blank line is a session header (how the loader tells). */
async function holdsSession(path: string): Promise<boolean> {
	let handle: Awaited<ReturnType<typeof open>> | undefined;
	try {
		// Only regular files: opening a FIFO for reading would wait for a writer forever.
		if (!(await stat(path)).isFile()) return false;
		handle = await open(path, "r");
		// A header line is small; a few KB cover even a long title without reading a big file whole.
		const buffer = Buffer.alloc(64 * 1024);
		const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
		const text = buffer
			.subarray(0, bytesRead)
			.toString("utf8")
			.replace(/^\ufeff/, "");
		const line = text.split("\n").find((l) => l.trim().length > 0);
		if (line === undefined) return false;
		return isSessionHeader(JSON.parse(line));
	} catch {
		return false;
	} finally {
		await handle?.close();
	}
}

/** Where an export may go, and whether an existing file there may be replaced. */
export interface ExportTargetCheck {
	/** The session file the export is made from (`--export <input>`, or the open session's file). */
	input?: string | undefined;
	/** `--force`: replace an existing file that is not a session. */
	replace?: boolean | undefined;
}

/**
 * Why an export must not be written to `path`, or undefined when it may: the output is the input
 * (by real path), an existing session file, anything under the sessions folder, or an existing file
 * without `--force`. Symlinks are followed, also for a name that does not exist yet.
 */
export async function exportTargetProblem(path: string, check: ExportTargetCheck): Promise<string | undefined> {
	const target = await realTarget(path);
	if (check.input !== undefined && target === (await realTarget(check.input)))
		return `Refusing to export onto the session itself: ${path}`;
	if (await holdsSession(target)) return `Refusing to overwrite a session file: ${path}`;
	const sessions = await realTarget(getSessionsRoot());
	if (isInside(target, sessions))
		return `Refusing to write an export inside the sessions folder (${sessions}): ${path}`;
	const existing = await lstat(path).catch(() => undefined);
	if (existing === undefined) return undefined;
	// --force replaces a file (or a link), never a folder, a device or a pipe.
	if (!existing.isFile() && !existing.isSymbolicLink()) return `${path} is not a regular file`;
	return check.replace ? undefined : alreadyExists(path);
}

/** The refusal for an existing file without `--force`. */
export function alreadyExists(path: string): string {
	return `${path} already exists; add --force to replace it`;
}

async function exists(path: string): Promise<boolean> {
	try {
		// lstat: a dangling symlink is still something we would replace.
		await lstat(path);
		return true;
	} catch {
		return false;
	}
}

/**
 * A default output name that replaces nothing: `stem.ext`, else `stem-2.ext`, `stem-3.ext`, …
 * (a second `/export` must not fail or overwrite the first page). With `replace`, `stem.ext` as is.
 */
export async function freeDefaultPath(
	folder: string,
	stem: string,
	format: ExportFormat,
	replace = false,
): Promise<string> {
	// A session's own name (`s.jsonl`) is never a JSON-lines export's default: `s.pi.jsonl`.
	const ext = isJsonlFormat(format) ? `.${format}${EXTENSIONS[format][0]}` : EXTENSIONS[format][0];
	const first = join(folder, `${stem}${ext}`);
	if (replace || !(await exists(first))) return first;
	for (let n = 2; ; n++) {
		const candidate = join(folder, `${stem}-${n}${ext}`);
		if (!(await exists(candidate))) return candidate;
	}
}
