import { dirname } from "node:path";
import { type BlobStorage, MemoryBlobStore } from "./blob-store.js";
import type { SessionStorageWriter, WriterMode } from "./ndjson-writer.js";
import type { LockResult } from "./session-lock.js";
import {
	type BodyFile,
	type ChunkReader,
	decodePrefix,
	enoent,
	type SessionStorage,
	type StorageStat,
} from "./session-storage.js";

interface MemoryFile {
	text: string;
	mtimeMs: number;
	birthtimeMs: number;
}

function isUnder(dir: string, path: string): boolean {
	return dirname(path) === dir;
}

/** A map-backed filesystem for in-memory sessions and tests. */
export class MemorySessionStorage implements SessionStorage {
	readonly blobs: BlobStorage = new MemoryBlobStore();
	readonly #files = new Map<string, MemoryFile>();
	readonly #dirs = new Set<string>();

	ensureDirSync(dir: string): void {
		let current = dir;
		while (!this.#dirs.has(current) && dirname(current) !== current) {
			this.#dirs.add(current);
			current = dirname(current);
		}
	}

	existsSync(path: string): boolean {
		return this.#files.has(path) || this.#dirs.has(path);
	}

	writeTextSync(path: string, text: string): void {
		this.ensureDirSync(dirname(path));
		const now = Date.now();
		const existing = this.#files.get(path);
		this.#files.set(path, { text, mtimeMs: now, birthtimeMs: existing?.birthtimeMs ?? now });
	}

	statSync(path: string): StorageStat | undefined {
		const file = this.#files.get(path);
		if (file) {
			return {
				size: Buffer.byteLength(file.text),
				mtimeMs: file.mtimeMs,
				birthtimeMs: file.birthtimeMs,
				isFile: true,
				isDirectory: false,
			};
		}
		if (this.#dirs.has(path)) return { size: 0, mtimeMs: 0, birthtimeMs: 0, isFile: false, isDirectory: true };
		return undefined;
	}

	listFilesSync(dir: string, suffix = ""): string[] {
		const names: string[] = [];
		for (const path of this.#files.keys()) {
			if (isUnder(dir, path) && path.endsWith(suffix)) names.push(path.slice(dir.length + 1));
		}
		return names;
	}

	listDirsSync(dir: string): string[] {
		return [...this.#dirs].filter((d) => isUnder(dir, d)).map((d) => d.slice(dir.length + 1));
	}

	async exists(path: string): Promise<boolean> {
		return this.existsSync(path);
	}

	async readText(path: string): Promise<string> {
		const file = this.#files.get(path);
		if (!file) throw enoent(path);
		return file.text;
	}

	async readTextPrefix(path: string, bytes: number): Promise<string> {
		const file = this.#files.get(path);
		if (!file) throw enoent(path);
		return decodePrefix(Buffer.from(file.text).subarray(0, bytes));
	}

	async writeText(path: string, text: string): Promise<void> {
		this.writeTextSync(path, text);
	}

	async readBytes(path: string, position: number, length: number): Promise<Buffer> {
		const file = this.#files.get(path);
		if (!file) throw enoent(path);
		return Buffer.from(file.text).subarray(position, position + length);
	}

	openChunkReader(path: string): ChunkReader {
		return { read: (position, length) => this.readBytes(path, position, length), close: async () => undefined };
	}

	openBodyFile(path: string): BodyFile {
		const file = this.#files.get(path);
		if (!file) throw enoent(path);
		// A snapshot, as an open descriptor keeps reading the file it opened.
		const bytes = Buffer.from(file.text);
		return { readSync: (position, length) => bytes.subarray(position, position + length), close: () => undefined };
	}

	async appendBytes(path: string, bytes: Buffer): Promise<void> {
		this.appendTextSync(path, bytes.toString("utf8"));
	}

	async rename(from: string, to: string): Promise<void> {
		const file = this.#files.get(from);
		if (!file) throw enoent(from);
		this.#files.delete(from);
		this.#files.set(to, file);
	}

	async unlink(path: string): Promise<void> {
		if (!this.#files.delete(path)) throw enoent(path);
	}

	async copyFile(from: string, to: string): Promise<void> {
		const file = this.#files.get(from);
		if (!file) throw enoent(from);
		this.writeTextSync(to, file.text);
	}

	async fsyncDir(): Promise<void> {}

	removeStaleTemps(): void {}

	lockHolder(): undefined {
		return undefined;
	}

	lock(): LockResult {
		// One process, one map: there is no other writer to exclude.
		return { kind: "acquired", release: () => undefined, stillHeld: () => true };
	}

	openWriter(path: string, mode: WriterMode): SessionStorageWriter {
		if (mode === "truncate") this.writeTextSync(path, "");
		return new MemoryWriter(this, path);
	}

	/** Appends to a file, creating it (used by MemoryWriter). */
	appendTextSync(path: string, text: string): void {
		const file = this.#files.get(path);
		if (file) {
			file.text += text;
			file.mtimeMs = Date.now();
		} else {
			this.writeTextSync(path, text);
		}
	}
}

class MemoryWriter implements SessionStorageWriter {
	readonly #storage: MemorySessionStorage;
	readonly #path: string;

	constructor(storage: MemorySessionStorage, path: string) {
		this.#storage = storage;
		this.#path = path;
	}

	writeLine(line: string): void {
		this.#storage.appendTextSync(this.#path, `${line}\n`);
	}

	async flush(): Promise<void> {}
	async fsync(): Promise<void> {}
	async close(): Promise<void> {}

	getError(): Error | undefined {
		return undefined;
	}
}
