import { factsOf, isLazy } from "./lazy-entry.js";
import { type EntryShape, SessionEntries } from "./session-entries.js";
import type { SessionLoadReport } from "./session-load-state.js";
import { type OpenSessionFileOptions, openSessionFile } from "./session-open.js";
import type { SessionStorage } from "./session-storage.js";
import type { SessionEntry, SessionHeader, StoredEntry } from "./types.js";

/** What reading a session to look at it found. */
export type SnapshotRead =
	| { kind: "missing" }
	| { kind: "empty" }
	| { kind: "invalid"; reason: string }
	| { kind: "ok"; snapshot: SessionSnapshot };

/**
 * A session file read to look at, never to write: the tree API of a session (big bodies left on
 * disk) with the file left exactly as it is, migrations applied in memory only.
 */
export class SessionSnapshot extends SessionEntries {
	readonly header: SessionHeader;
	readonly report: SessionLoadReport;

	private constructor(header: SessionHeader, report: SessionLoadReport) {
		super();
		this.header = header;
		this.report = report;
	}

	/** Reads a session file (streamed; files over the threshold keep big bodies on disk). */
	static async read(
		path: string,
		storage: SessionStorage,
		options: OpenSessionFileOptions = {},
	): Promise<SnapshotRead> {
		const opened = await openSessionFile(path, storage, options);
		if (opened.kind !== "loaded") return opened;
		const snapshot = new SessionSnapshot(opened.loaded.header, opened.loaded.report);
		snapshot.adoptEntries(opened.loaded.entries, opened.bodies);
		return { kind: "ok", snapshot };
	}

	protected override onAppend(entry: SessionEntry): void {
		throw new Error(`A session snapshot is read-only (tried to append ${entry.type})`);
	}

	/** Closes the file bodies are read from (a later read opens it again). */
	close(): void {
		this.bodies?.close();
	}
}

/** The role of a message entry (undefined for other entries), without reading a body left on disk. */
export function messageRoleOf(shape: EntryShape): string | undefined {
	if (shape.type !== "message") return undefined;
	return isLazy(shape) ? shape.role : factsOf(shape as StoredEntry).role;
}
