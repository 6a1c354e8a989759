import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ensurePrivateDirSync, writePrivateFileAtomically } from "../private-files.js";

/** Prefix of an externalised image's `data` field. */
export const BLOB_REF_PREFIX = "blob:sha256:";

const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** Content-addressed byte storage for externalised images. */
export interface BlobStorage {
	/** Stores the bytes and returns their sha256 hex (idempotent). */
	put(bytes: Buffer): Promise<string>;
	get(hash: string): Promise<Buffer | undefined>;
	/** `get` without waiting: bodies of big sessions are read on demand, inside synchronous calls. */
	getSync(hash: string): Buffer | undefined;
	has(hash: string): Promise<boolean>;
}

/** The sha256 hex of some bytes. */
export function hashBytes(bytes: Buffer): string {
	return createHash("sha256").update(bytes).digest("hex");
}

/** `blob:sha256:<hash>` → `<hash>`, or undefined when the value is not a blob reference. */
export function parseBlobRef(value: string): string | undefined {
	if (!value.startsWith(BLOB_REF_PREFIX)) return undefined;
	const hash = value.slice(BLOB_REF_PREFIX.length);
	return HASH_PATTERN.test(hash) ? hash : undefined;
}

function isMissing(error: unknown): boolean {
	return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/** Blobs as files `<dir>/<sha256>`, written atomically so a crash never leaves a partial blob. */
export class BlobStore implements BlobStorage {
	readonly #dir: string;

	constructor(dir: string) {
		this.#dir = dir;
	}

	/** The directory the blobs live in. */
	get dir(): string {
		return this.#dir;
	}

	async put(bytes: Buffer): Promise<string> {
		const hash = hashBytes(bytes);
		const target = join(this.#dir, hash);
		if (await this.has(hash)) return hash;
		ensurePrivateDirSync(this.#dir);
		await writePrivateFileAtomically(target, bytes);
		return hash;
	}

	async get(hash: string): Promise<Buffer | undefined> {
		if (!HASH_PATTERN.test(hash)) return undefined;
		try {
			return await readFile(join(this.#dir, hash));
		} catch (error) {
			if (isMissing(error)) return undefined;
			throw error;
		}
	}

	getSync(hash: string): Buffer | undefined {
		if (!HASH_PATTERN.test(hash)) return undefined;
		try {
			return readFileSync(join(this.#dir, hash));
		} catch (error) {
			if (isMissing(error)) return undefined;
			throw error;
		}
	}

	async has(hash: string): Promise<boolean> {
		if (!HASH_PATTERN.test(hash)) return false;
		try {
			await access(join(this.#dir, hash));
			return true;
		} catch {
			return false;
		}
	}
}

/** Blobs in a map: for in-memory sessions and tests. */
export class MemoryBlobStore implements BlobStorage {
	readonly #blobs = new Map<string, Buffer>();

	async put(bytes: Buffer): Promise<string> {
		const hash = hashBytes(bytes);
		if (!this.#blobs.has(hash)) this.#blobs.set(hash, Buffer.from(bytes));
		return hash;
	}

	async get(hash: string): Promise<Buffer | undefined> {
		return this.#blobs.get(hash);
	}

	getSync(hash: string): Buffer | undefined {
		return this.#blobs.get(hash);
	}

	async has(hash: string): Promise<boolean> {
		return this.#blobs.has(hash);
	}
}
