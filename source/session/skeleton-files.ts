import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from "../private-files.js";
import type { SkeletonStore } from "./skeleton-cache.js";

/** Skeleton caches as files `<dir>/<sha256 of the session path>.skel`, replaced atomically. */
export class SkeletonFiles implements SkeletonStore {
	readonly #dir: string;

	constructor(dir: string) {
		this.#dir = dir;
	}

	/** The cache file of a session file. */
	pathFor(sessionFile: string): string {
		return join(this.#dir, `${createHash("sha256").update(sessionFile).digest("hex").slice(0, 40)}.skel`);
	}

	read(sessionFile: string): Buffer | undefined {
		try {
			return readFileSync(this.pathFor(sessionFile));
		} catch {
			return undefined;
		}
	}

	async write(sessionFile: string, bytes: Buffer): Promise<void> {
		ensurePrivateDirSync(this.#dir);
		const target = this.pathFor(sessionFile);
		const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
		try {
			const handle = await open(temp, "w", PRIVATE_FILE_MODE);
			try {
				await handle.writeFile(bytes);
				await handle.sync();
			} finally {
				await handle.close();
			}
			await rename(temp, target);
		} catch (error) {
			await unlink(temp).catch(() => undefined);
			throw error;
		}
	}
}
