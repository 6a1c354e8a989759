import { dirname } from "node:path";
import type { HeldLock } from "./session-file-access.js";
import type { SessionPersistence } from "./session-persistence.js";
import type { SessionStorage } from "./session-storage.js";

/**
 * The lock a session holds on its file while it writes it. Once held, every rewrite of the file
 * first checks that the lock is still this session's (the persistence asks).
 */
export class SessionFileLock {
	readonly #storage: SessionStorage;
	readonly #persistence: SessionPersistence;
	#lock: HeldLock | undefined;

	constructor(storage: SessionStorage, persistence: SessionPersistence) {
		this.#storage = storage;
		this.#persistence = persistence;
	}

	/** Locks a new file when it is first written (nothing exists to lock before). */
	lockNewFile(): void {
		const file = this.#persistence.file;
		if (this.#lock || !file) return;
		try {
			this.#storage.ensureDirSync(dirname(file));
			const lock = this.#storage.lock(file);
			if (lock.kind === "acquired") this.hold(lock);
		} catch {
			// The directory cannot be written: the write that follows fails and reports it properly.
		}
	}

	/** Holds `lock` (undefined: none) from here on. */
	hold(lock: HeldLock | undefined): void {
		this.#lock = lock;
		this.#persistence.setLockCheck(lock?.stillHeld);
	}

	/** Releases the lock held, if any. */
	release(): void {
		this.#lock?.release();
		this.hold(undefined);
	}
}
