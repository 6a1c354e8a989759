import { resolveBlobRefsSync } from "./blob-refs.js";
import type { BlobStorage } from "./blob-store.js";
import type { LazyEntry } from "./lazy-entry.js";
import type { BodyFile } from "./session-storage.js";
import type { StoredEntry } from "./types.js";

/** A body read on demand is not what the skeleton says: the file was changed behind xcsh. */
export class SessionFileChangedError extends Error {
	constructor(path: string, entryId: string) {
		super(`The session file changed on disk (entry ${entryId} is not where it was): reopen ${path}`);
		this.name = "SessionFileChangedError";
	}
}

/** Bodies kept after a read, so a screen that asks again does not read again. */
const RECENT_BODIES = 64;

/**
 * Reads the bodies of a big session's entries from its file when a caller asks for them: one
 * positional read, one parse and the entry's blobs, checked against the skeleton's id.
 */
export class EntryBodies {
	#file: BodyFile | undefined;
	#path: string;
	readonly #open: (path: string) => BodyFile;
	readonly #blobs: BlobStorage;
	/** By the line's offset: a skeleton row's views are made afresh, the line is the same. */
	readonly #recent = new Map<number, StoredEntry>();

	/** `open` opens the file now; after `close()` the next read opens it again. */
	constructor(path: string, open: (path: string) => BodyFile, blobs: BlobStorage) {
		this.#path = path;
		this.#open = open;
		this.#file = open(path);
		this.#blobs = blobs;
	}

	/**
	 * The entry, complete (blob references resolved). `keep: false` reads it without keeping it among
	 * the recent bodies: a stream over thousands of big bodies would otherwise hold the last 64 long
	 * enough for each to outlive the young generation, and the old one fills with their garbage.
	 */
	read(lazy: LazyEntry, keep = true): StoredEntry {
		const key = lazy.offset;
		const cached = this.#recent.get(key);
		if (cached?.id === lazy.id) {
			// Most recently used last: the oldest key is dropped first.
			this.#recent.delete(key);
			this.#recent.set(key, cached);
			return cached;
		}
		let entry: StoredEntry;
		try {
			entry = JSON.parse(this.rawLine(lazy)) as StoredEntry;
		} catch {
			throw new SessionFileChangedError(this.#path, lazy.id);
		}
		if (entry?.id !== lazy.id) throw new SessionFileChangedError(this.#path, lazy.id);
		resolveBlobRefsSync(entry, this.#blobs);
		if (!keep) return entry;
		this.#recent.set(key, entry);
		if (this.#recent.size > RECENT_BODIES) this.#recent.delete(this.#recent.keys().next().value!);
		return entry;
	}

	/** The entry's line as it is in the file (blob references unresolved), for byte-exact copies. */
	rawLine(lazy: LazyEntry): string {
		this.#file ??= this.#open(this.#path);
		return this.#file.readSync(lazy.offset, lazy.length).toString("utf8");
	}

	/** Reads from another file from now on (the session was rewritten or forked there). */
	replaceFile(path: string): void {
		const next = this.#open(path);
		this.#file?.close();
		this.#file = next;
		this.#path = path;
		this.#recent.clear();
	}

	/** Closes the file (a later read opens it again). */
	close(): void {
		this.#file?.close();
		this.#file = undefined;
		this.#recent.clear();
	}
}
