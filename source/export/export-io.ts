import { link, mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { resolveBlobRefs } from "../session/blob-refs.js";
import { migrateSessionEntries } from "../session/migrations.js";
import { readSessionFile } from "../session/session-loader.js";
import { FileSessionStorage, tempPathFor } from "../session/session-storage.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";
import { alreadyExists, type ExportTargetCheck, exportTargetProblem } from "./export-target.js";

/** A session file as an export sees it: migrated and with blobs resolved, in memory only. */
export interface ExportSource {
	path: string;
	header: SessionHeader;
	entries: StoredEntry[];
	/** As when the file is opened: the last entry. */
	leafId: string | null;
}

/**
 * Reads a session file for `--export` without changing it (opening would migrate and rewrite a
 * v1 file). A missing file is `File not found: <path>`, anything else not a session `Not a session file: <path>`.
 */
export async function readExportSource(inputPath: string, cwd: string): Promise<ExportSource> {
	const path = resolve(cwd, inputPath);
	const storage = new FileSessionStorage();
	const read = await readSessionFile(path, storage);
	if (read.kind === "missing") throw new Error(`File not found: ${path}`);
	if (read.kind !== "ok") throw new Error(`Not a session file: ${path}`);
	migrateSessionEntries(read.entries);
	await resolveBlobRefs(read.entries, storage.blobs);
	const entries = read.entries.slice(1) as StoredEntry[];
	return { path, header: read.entries[0] as SessionHeader, entries, leafId: entries.at(-1)?.id ?? null };
}

/** How `writeExportFile` may treat what is already at the output path. */
export interface ExportWrite extends ExportTargetCheck {}

// Hard links are missing on some file systems (FAT, some network shares): create exclusively there.
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK", "EXDEV"]);

/**
 * Writes an export after `exportTargetProblem` allowed it: through a sibling temp file, so a reader
 * (or a browser already showing the file) never sees half a page, then `link()`ed to the name, which
 * fails if anything appeared there meanwhile — an export never replaces a file unless `replace`
 * (`--force`), and then by an atomic rename. No fsync: an export can always be made again.
 */
export async function writeExportFile(path: string, text: string, write: ExportWrite = {}): Promise<void> {
	const problem = await exportTargetProblem(path, write);
	if (problem) throw new Error(problem);
	const temp = tempPathFor(path);
	try {
		// `/export "new dir/page.html"` names a folder that may not exist yet.
		await mkdir(dirname(path), { recursive: true });
		await writeFile(temp, text);
		if (write.replace) await rename(temp, path);
		else await linkExclusively(temp, path, text);
	} finally {
		await unlink(temp).catch(() => undefined);
	}
}

async function linkExclusively(temp: string, path: string, text: string): Promise<void> {
	try {
		await link(temp, path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EEXIST") throw new Error(alreadyExists(path));
		if (!code || !NO_LINKS.has(code)) throw error;
		await writeFile(path, text, { flag: "wx" }).catch((inner: NodeJS.ErrnoException) => {
			throw inner.code === "EEXIST" ? new Error(alreadyExists(path)) : inner;
		});
	}
}
