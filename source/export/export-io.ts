import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { migrateSessionEntries } from "../session/migrations.js";
import { resolveBlobRefs } from "../session/persist-transform.js";
import type { StoredEntry } from "../session/session-entries.js";
import { readSessionFile } from "../session/session-loader.js";
import { FileSessionStorage, tempPathFor } from "../session/session-storage.js";
import type { SessionHeader } from "../session/types.js";

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

/**
 * Writes through a sibling temp file and a rename, so a reader (or a browser already showing the
 * file) never sees half a page. No fsync: an export can always be made again.
 */
export async function writeExportFile(path: string, text: string): Promise<void> {
	const temp = tempPathFor(path);
	try {
		// `/export "new dir/page.html"` names a folder that may not exist yet.
		await mkdir(dirname(path), { recursive: true });
		await writeFile(temp, text);
		await rename(temp, path);
	} catch (error) {
		await unlink(temp).catch(() => undefined);
		throw error;
	}
}
