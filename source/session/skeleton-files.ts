import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDirSync, writePrivateFileAtomically } from "../private-files.js";
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
		await writePrivateFileAtomically(this.pathFor(sessionFile), bytes);
	}
}
