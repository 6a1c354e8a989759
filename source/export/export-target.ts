import { lstat, open, realpath, stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { getSessionsRoot } from "../agent-dir.js";
import { isSessionHeader } from "../session/session-loader.js";

/** What an export can be written as. */
export type ExportFormat = "html" | "md" | "json";

const EXTENSIONS: Record<ExportFormat, readonly string[]> = {
	html: [".html", ".htm"],
	md: [".md", ".markdown"],
	json: [".json"],
};

const FORMATS: readonly ExportFormat[] = ["html", "md", "json"];

/** The format an output name implies, or undefined for any other extension (or none). */
export function formatOfExtension(path: string): ExportFormat | undefined {
	const ext = extname(path).toLowerCase();
	return FORMATS.find((format) => EXTENSIONS[format].includes(ext));
}

/**
 * The format of an export from `--format` and the output's name. Without `--format` the extension
 * decides and anything but .html/.htm/.md/.markdown/.json is refused (it used to fall back to HTML,
 * which turned `--export a.jsonl b.jsonl` into overwriting a session). With `--format` any other
 * extension (`notes.txt`) is accepted, because the person named the format; an extension of
 * another format, and `.jsonl` always, are refused.
 */
export function chooseExportFormat(
	output: string | undefined,
	requested: string | undefined,
): { format: ExportFormat } | { error: string } {
	if (requested !== undefined && !FORMATS.includes(requested as ExportFormat))
		return { error: `--format takes md, json or html (got "${requested}")` };
	const explicit = requested as ExportFormat | undefined;
	if (output === undefined) return { format: explicit ?? "html" };
	const name = basename(output);
	if (extname(name).toLowerCase() === ".jsonl")
		return { error: `Refusing to write an export to ${name}: .jsonl is the session format; use .html, .md or .json` };
	const implied = formatOfExtension(name);
	if (explicit === undefined) {
		if (implied) return { format: implied };
		return {
			error: `Cannot tell the export format from ${name}: use a .html, .md or .json name, or --format html|md|json`,
		};
	}
	if (implied && implied !== explicit)
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
	const ext = EXTENSIONS[format][0];
	const first = join(folder, `${stem}${ext}`);
	if (replace || !(await exists(first))) return first;
	for (let n = 2; ; n++) {
		const candidate = join(folder, `${stem}-${n}${ext}`);
		if (!(await exists(candidate))) return candidate;
	}
}
