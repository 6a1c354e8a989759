import { constants } from "node:fs";
import { copyFile, type FileHandle, link, mkdir, open, rename, unlink } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { resolveBlobRefs } from "../session/blob-refs.js";
import { migrateSessionEntries } from "../session/migrations.js";
import { readSessionFile } from "../session/session-loader.js";
import { FileSessionStorage, tempPathFor } from "../session/session-storage.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";
import { alreadyExists, type ExportTargetCheck, exportTargetProblem } from "./export-target.js";

/** A session file as an export saw it before exports streamed: every entry in memory (kept for the fuzz tests). */
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

/** Where a streamed export writes its text, in order. */
export interface ExportSink {
	write(text: string): Promise<void>;
}

/** Text is gathered to about this many characters before a write: few syscalls, bounded memory. */
const SINK_BUFFER_CHARS = 1 << 20;

/** A sink over an open file, buffered; `flush()` before closing. */
export class FileSink implements ExportSink {
	readonly #handle: FileHandle;
	#parts: string[] = [];
	#chars = 0;

	constructor(handle: FileHandle) {
		this.#handle = handle;
	}

	async write(text: string): Promise<void> {
		this.#parts.push(text);
		this.#chars += text.length;
		if (this.#chars >= SINK_BUFFER_CHARS) await this.flush();
	}

	/** Writes what is buffered. */
	async flush(): Promise<void> {
		if (this.#parts.length === 0) return;
		const text = this.#parts.join("");
		this.#parts = [];
		this.#chars = 0;
		await this.#handle.write(text);
	}
}

/**
 * Writes an export after `exportTargetProblem` allowed it, `produce` streaming its text: through a
 * sibling temp file, so a reader (or a browser already showing the file) never sees half a page,
 * then `link()`ed to the name, which fails if anything appeared there meanwhile — an export never
 * replaces a file unless `replace` (`--force`), and then by an atomic rename. No fsync: an export
 * can always be made again. The text is never held whole, so its size is not bounded by memory.
 */
export async function writeExportStream(
	path: string,
	write: ExportWrite,
	produce: (sink: ExportSink) => Promise<void>,
): Promise<void> {
	const problem = await exportTargetProblem(path, write);
	if (problem) throw new Error(problem);
	const temp = tempPathFor(path);
	try {
		// `/export "new dir/page.html"` names a folder that may not exist yet.
		await mkdir(dirname(path), { recursive: true });
		const handle = await open(temp, "wx");
		try {
			const sink = new FileSink(handle);
			await produce(sink);
			await sink.flush();
		} finally {
			await handle.close();
		}
		if (write.replace) await rename(temp, path);
		else await linkExclusively(temp, path);
	} finally {
		await unlink(temp).catch(() => undefined);
	}
}

/** `writeExportStream` for text already in memory (a small export). */
export async function writeExportFile(path: string, text: string, write: ExportWrite = {}): Promise<void> {
	await writeExportStream(path, write, (sink) => sink.write(text));
}

async function linkExclusively(temp: string, path: string): Promise<void> {
	try {
		await link(temp, path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EEXIST") throw new Error(alreadyExists(path));
		if (!code || !NO_LINKS.has(code)) throw error;
		// COPYFILE_EXCL: like link(), fails when something appeared at the name meanwhile.
		await copyFile(temp, path, constants.COPYFILE_EXCL).catch((inner: NodeJS.ErrnoException) => {
			throw inner.code === "EEXIST" ? new Error(alreadyExists(path)) : inner;
		});
	}
}
