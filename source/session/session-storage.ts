import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync, writeFileSync } from "node:fs";
import { access, copyFile, type FileHandle, open, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ensurePrivateDirSync, makePrivate, PRIVATE_FILE_MODE } from "../private-files.js";
import { type BlobStorage, BlobStore } from "./blob-store.js";
import { NdjsonFileWriter, type SessionStorageWriter, type WriterMode } from "./ndjson-writer.js";
import { acquireLock, type LockInfo, type LockResult, lockHolderOther } from "./session-lock.js";
import { getBlobsDir, getSkeletonsDir } from "./session-paths.js";
import type { SkeletonStore } from "./skeleton-cache.js";
import { SkeletonFiles } from "./skeleton-files.js";
import { removeStaleTemps } from "./stale-temps.js";

export type { SessionStorageWriter, WriterMode } from "./ndjson-writer.js";

/** What `statSync` reports about a path. */
export interface StorageStat {
	size: number;
	/** The inode (undefined where the storage has none): a replaced file has a new one. */
	ino?: number;
	mtimeMs: number;
	birthtimeMs: number;
	isFile: boolean;
	isDirectory: boolean;
}

/** A session file held open for reading bodies on demand (it keeps reading the same file if the path is replaced). */
export interface BodyFile {
	/** Up to `length` bytes from `position`. */
	readSync(position: number, length: number): Buffer;
	close(): void;
}

/** A file held open for a scan's chunk reads (one read per chunk, no open and close around each). */
export interface ChunkReader {
	/** Up to `length` bytes at `position` (into `into` when given and big enough). */
	read(position: number, length: number, into?: Buffer): Promise<Buffer>;
	close(): Promise<void>;
}

/** Every filesystem operation `SessionManager` uses, so sessions can live on disk or in memory. */
export interface SessionStorage {
	ensureDirSync(dir: string): void;
	existsSync(path: string): boolean;
	writeTextSync(path: string, text: string): void;
	/** undefined when the path does not exist. */
	statSync(path: string): StorageStat | undefined;
	/** Names (not paths) of the entries of `dir` ending with `suffix`; [] when `dir` is missing. */
	listFilesSync(dir: string, suffix?: string): string[];
	/** Names of the sub-directories of `dir`; [] when `dir` is missing. */
	listDirsSync(dir: string): string[];
	exists(path: string): Promise<boolean>;
	/** Rejects with an ENOENT error when the file is missing. */
	readText(path: string): Promise<string>;
	/** At most `bytes` bytes from the start of the file, decoded as UTF-8 (a cut character is dropped). */
	readTextPrefix(path: string, bytes: number): Promise<string>;
	writeText(path: string, text: string): Promise<void>;
	/** Up to `length` bytes from `position` (fewer at the end of the file). */
	/** Up to `length` bytes at `position` (into `into` when given and big enough). */
	readBytes(path: string, position: number, length: number, into?: Buffer): Promise<Buffer>;
	/** Opens a file for a scan's reads (the first read rejects with ENOENT when it is missing). */
	openChunkReader(path: string): ChunkReader;
	/** Opens a file for `BodyFile.readSync` (rejects with ENOENT when missing). */
	openBodyFile(path: string): BodyFile;
	/** Appends bytes and fsyncs the file. */
	appendBytes(path: string, bytes: Buffer): Promise<void>;
	rename(from: string, to: string): Promise<void>;
	unlink(path: string): Promise<void>;
	copyFile(from: string, to: string): Promise<void>;
	/** fsync a directory so a rename in it survives a power cut. */
	fsyncDir(dir: string): Promise<void>;
	openWriter(path: string, mode: WriterMode): SessionStorageWriter;
	/** Locks a session file for writing (single writer per session). */
	lock(sessionFile: string): LockResult;
	/** Removes temp files of this session left by processes that died mid-write (never a live one's). */
	removeStaleTemps(sessionFile: string): void;
	/** The other live xcsh that has this session open, if any. */
	lockHolder(sessionFile: string): LockInfo | undefined;
	/** Where externalised images go. */
	readonly blobs: BlobStorage;
	/** Where big sessions' skeletons are cached (none: every open reads the whole file). */
	readonly skeletons?: SkeletonStore;
	/** Its paths are files of this machine's filesystem, which other threads can read themselves (a first open of a big file then reads on threads). */
	readonly sharedFiles?: boolean;
}

function enoent(path: string): NodeJS.ErrnoException {
	const error: NodeJS.ErrnoException = new Error(`ENOENT: no such file or directory, open '${path}'`);
	error.code = "ENOENT";
	return error;
}

/** Decodes a byte prefix, dropping a multi-byte character the cut split. */
function decodePrefix(buffer: Buffer): string {
	const text = buffer.toString("utf8");
	return text.endsWith("\uFFFD") ? text.slice(0, -1) : text;
}

/** The real filesystem. */
export class FileSessionStorage implements SessionStorage {
	readonly blobs: BlobStorage;
	readonly skeletons: SkeletonStore;
	readonly sharedFiles = true;

	constructor(
		blobs: BlobStorage = new BlobStore(getBlobsDir()),
		skeletons: SkeletonStore = new SkeletonFiles(getSkeletonsDir()),
	) {
		this.blobs = blobs;
		this.skeletons = skeletons;
	}

	ensureDirSync(dir: string): void {
		ensurePrivateDirSync(dir);
	}

	existsSync(path: string): boolean {
		return existsSync(path);
	}

	writeTextSync(path: string, text: string): void {
		writeFileSync(path, text, { mode: PRIVATE_FILE_MODE });
	}

	statSync(path: string): StorageStat | undefined {
		try {
			const stat = statSync(path);
			return {
				size: stat.size,
				ino: stat.ino,
				mtimeMs: stat.mtimeMs,
				birthtimeMs: stat.birthtimeMs,
				isFile: stat.isFile(),
				isDirectory: stat.isDirectory(),
			};
		} catch {
			return undefined;
		}
	}

	listFilesSync(dir: string, suffix = ""): string[] {
		try {
			return readdirSync(dir, { withFileTypes: true })
				.filter((d) => d.isFile() && d.name.endsWith(suffix))
				.map((d) => d.name);
		} catch {
			return [];
		}
	}

	listDirsSync(dir: string): string[] {
		try {
			return readdirSync(dir, { withFileTypes: true })
				.filter((d) => d.isDirectory())
				.map((d) => d.name);
		} catch {
			return [];
		}
	}

	async exists(path: string): Promise<boolean> {
		try {
			await access(path);
			return true;
		} catch {
			return false;
		}
	}

	async readText(path: string): Promise<string> {
		// One decode of the whole buffer: readFile(path, "utf8") decodes 512 KiB chunks into a rope
		// that the first string operation then has to flatten (seconds on a 300 MB session).
		return (await readFile(path)).toString("utf8");
	}

	async readTextPrefix(path: string, bytes: number): Promise<string> {
		const handle = await open(path, "r");
		try {
			const buffer = Buffer.allocUnsafe(bytes);
			const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
			return decodePrefix(buffer.subarray(0, bytesRead));
		} finally {
			await handle.close();
		}
	}

	writeText(path: string, text: string): Promise<void> {
		return writeFile(path, text, { mode: PRIVATE_FILE_MODE });
	}

	async readBytes(path: string, position: number, length: number, into?: Buffer): Promise<Buffer> {
		const handle = await open(path, "r");
		try {
			// Unzeroed: only the bytes read are handed out.
			const buffer = into && into.length >= length ? into : Buffer.allocUnsafe(length);
			const { bytesRead } = await handle.read(buffer, 0, length, position);
			return buffer.subarray(0, bytesRead);
		} finally {
			await handle.close();
		}
	}

	openChunkReader(path: string): ChunkReader {
		let opening: Promise<FileHandle> | undefined;
		return {
			async read(position, length, into) {
				opening ??= open(path, "r");
				const handle = await opening;
				// Unzeroed: only the bytes read are handed out.
				const buffer = into && into.length >= length ? into : Buffer.allocUnsafe(length);
				const { bytesRead } = await handle.read(buffer, 0, length, position);
				return buffer.subarray(0, bytesRead);
			},
			async close() {
				const handle = await opening?.catch(() => undefined);
				await handle?.close();
			},
		};
	}

	openBodyFile(path: string): BodyFile {
		let fd: number | undefined = openSync(path, "r");
		return {
			readSync(position, length) {
				if (fd === undefined) throw new Error(`read after close: ${path}`);
				const buffer = Buffer.allocUnsafe(length);
				let filled = 0;
				while (filled < length) {
					const read = readSync(fd, buffer, filled, length - filled, position + filled);
					if (read === 0) break;
					filled += read;
				}
				return buffer.subarray(0, filled);
			},
			close() {
				if (fd !== undefined) closeSync(fd);
				fd = undefined;
			},
		};
	}

	async appendBytes(path: string, bytes: Buffer): Promise<void> {
		const handle = await open(path, "a");
		try {
			await handle.writeFile(bytes);
			await handle.sync();
		} finally {
			await handle.close();
		}
	}

	rename(from: string, to: string): Promise<void> {
		return rename(from, to);
	}

	unlink(path: string): Promise<void> {
		return unlink(path);
	}

	async copyFile(from: string, to: string): Promise<void> {
		await copyFile(from, to);
		// A copy keeps its source's mode; a session written by an earlier xcsh may be readable by all.
		makePrivate(to);
		const handle = await open(to, "r+");
		try {
			await handle.sync();
		} finally {
			await handle.close();
		}
	}

	async fsyncDir(dir: string): Promise<void> {
		const handle = await open(dir, "r");
		try {
			await handle.sync();
		} finally {
			await handle.close();
		}
	}

	openWriter(path: string, mode: WriterMode): SessionStorageWriter {
		return new NdjsonFileWriter(path, mode);
	}

	lock(sessionFile: string): LockResult {
		return acquireLock(sessionFile);
	}

	lockHolder(sessionFile: string): LockInfo | undefined {
		return lockHolderOther(sessionFile);
	}

	removeStaleTemps(sessionFile: string): void {
		removeStaleTemps(sessionFile);
	}
}

/** A sibling temp path for an atomic rewrite of `path` (same directory, so rename is atomic). */
export function tempPathFor(path: string): string {
	return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

export { decodePrefix, enoent };
