import { resolve } from "node:path";
import { parseSearchQuery } from "../source/index/search-filters.js";
import { type SearchHit, SessionIndex } from "../source/index/session-index.js";
import type { AgentSession } from "../source/session/agent-session.js";
import { errorText } from "./error-text.js";
import type { ResumeOutcome } from "./selector-controller.js";

/** Which sessions the search covers: this project's, or every project's. */
export type SearchScope = "project" | "all";

/** The search screen's state; a new frozen object on every change (for `useSyncExternalStore`). */
export interface SearchSnapshot {
	/** The query as typed, filter tokens included. */
	readonly query: string;
	readonly scope: SearchScope;
	readonly hits: readonly SearchHit[];
	/** The query has words to match (and no bad filter), so `hits` are its results. */
	readonly searched: boolean;
	/** The index is being brought up to date in the background; the hits may still change. */
	readonly refreshing: boolean;
	/** A bad `role:` / `since:` / `until:` token. */
	readonly filterError?: string;
	/** The index could not be opened, refreshed or searched. */
	readonly error?: string;
}

/** What opening a hit did; the UI shows the notice or screen that goes with it. */
export type OpenHitOutcome =
	/** The leaf moved to the entry (or, for a user message, to its parent: its text goes back to the editor). */
	| { readonly kind: "moved"; readonly editorText?: string }
	/** The entry is on another branch: the tree view opens on it, the leaf stays. */
	| { readonly kind: "tree"; readonly entryId: string }
	/** The entry is gone (the index was stale); `switched` says whether the session was opened. */
	| { readonly kind: "missing"; readonly switched: boolean }
	/** Switching to the hit's session did not happen (see `ResumeOutcome`). */
	| { readonly kind: Exclude<ResumeOutcome, "resumed"> };

/** The index as the controller uses it (a real `SessionIndex`; tests may wrap one). */
export type SearchIndex = Pick<SessionIndex, "refresh" | "search" | "close">;

/** What the controller needs from the running app. */
export interface SearchControllerOptions {
	/** The project "this project" means. */
	readonly cwd: string;
	/** The session the hits are opened in. */
	readonly session: () => Pick<AgentSession, "sessionManager" | "navigateTree">;
	/** Switches to another session file, as the /resume picker does. */
	readonly resume: (path: string) => Promise<ResumeOutcome>;
	readonly openIndex?: () => SearchIndex;
	/** Most hits listed; default 50 (each needs its snippet read back from its session file). */
	readonly limit?: number;
	/** The clock for `since:` / `until:` spans (tests pin it). */
	readonly now?: () => number;
}

/** The notice after the leaf moved to a hit. */
export const MOVED_NOTICE = "Moved to the matching entry; later entries stay reachable in /tree";

/** The notice when the tree view opens on a hit that is on another branch. */
export const BRANCH_NOTICE =
	"The matching entry is on another branch: the tree shows it (Enter goes there, Esc stays on this branch)";

/** The notice when the hit's entry no longer exists. */
export function missingEntryNotice(switched: boolean): string {
	return switched
		? "Opened the session, but the matching entry is no longer in it (the search index was out of date)"
		: "The matching entry is no longer in this session (the search index was out of date)";
}

/** The notice when Enter on a hit opened another session: which one (the id as `xcsh --resume` takes it). */
export function openedAtMatchNotice(name: string | undefined, sessionId: string): string {
	const id = sessionId.slice(0, 8);
	return name ? `Opened "${name}" (${id}) at the match` : `Opened session ${id} at the match`;
}

/** A line the chat shows. */
export interface HitNotice {
	readonly level: "info" | "warning";
	readonly text: string;
}

/**
 * What the chat says once a search hit opened, in order: what opening said (a locked choice), which
 * session it switched to, then what happened at the entry. Cancelled and failed resumes report
 * themselves (they need the selector's error).
 */
export function hitNotices(
	outcome: Exclude<OpenHitOutcome, { kind: "locked" }>,
	opened: string | undefined,
	switchedTo: string | undefined,
): HitNotice[] {
	const notices: HitNotice[] = [];
	if (opened !== undefined) notices.push({ level: "info", text: opened });
	if (switchedTo !== undefined && outcome.kind !== "missing") notices.push({ level: "info", text: switchedTo });
	if (outcome.kind === "tree") notices.push({ level: "info", text: BRANCH_NOTICE });
	if (outcome.kind === "moved") notices.push({ level: "info", text: MOVED_NOTICE });
	if (outcome.kind === "missing") notices.push({ level: "warning", text: missingEntryNotice(outcome.switched) });
	return notices;
}

type Listener = () => void;

const DEFAULT_LIMIT = 50;

/**
 * Full-text search over every session for the search screen: answers from the index as it is at
 * once, brings the index up to date in the background and answers again. Plain TS, bound in the
 * UI via `useSyncExternalStore`.
 */
export class SearchController {
	readonly #options: SearchControllerOptions;
	readonly #listeners = new Set<Listener>();
	#snapshot: SearchSnapshot = Object.freeze({
		query: "",
		scope: "project",
		hits: Object.freeze([]),
		searched: false,
		refreshing: false,
	});
	#index: SearchIndex | undefined;
	#refreshing: Promise<void> | undefined;
	#disposed = false;

	constructor(options: SearchControllerOptions) {
		this.#options = options;
	}

	/** Registers a change listener; returns its unsubscribe. */
	subscribe = (listener: Listener): (() => void) => {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	};

	/** The current immutable snapshot. */
	getSnapshot = (): SearchSnapshot => this.#snapshot;

	#set(patch: Partial<SearchSnapshot>, clear: readonly ("error" | "filterError")[] = []): void {
		const next: { -readonly [K in keyof SearchSnapshot]: SearchSnapshot[K] } = { ...this.#snapshot, ...patch };
		for (const key of clear) delete next[key];
		if (next.hits !== this.#snapshot.hits) next.hits = Object.freeze([...next.hits]);
		this.#snapshot = Object.freeze(next);
		for (const listener of this.#listeners) listener();
	}

	/**
	 * Opens the screen's search: this project, `query` prefilled and answered at once from the index
	 * as it is; resolves once the background refresh has answered again.
	 */
	open(query = ""): Promise<void> {
		this.#set({ scope: "project" });
		this.setQuery(query);
		return this.#refresh();
	}

	/** Answers a new query (search as you type). */
	setQuery(query: string): void {
		this.#set({ query });
		this.#run();
	}

	/** Switches between this project and all projects, and answers again. */
	toggleScope(): void {
		this.#set({ scope: this.#snapshot.scope === "project" ? "all" : "project" });
		this.#run();
	}

	/** Brings the index up to date and answers again (sessions came in while the screen is open). */
	refresh(): Promise<void> {
		return this.#refresh();
	}

	#openIndex(): SearchIndex | undefined {
		if (this.#index === undefined && !this.#disposed) {
			try {
				this.#index = (this.#options.openIndex ?? (() => SessionIndex.open()))();
			} catch (error) {
				this.#set({ error: `Search index unavailable: ${errorText(error)}` });
			}
		}
		return this.#index;
	}

	#run(): void {
		const { query, scope } = this.#snapshot;
		const parsed = parseSearchQuery(query, (this.#options.now ?? Date.now)());
		if (parsed.error !== undefined) {
			this.#set({ hits: [], searched: false, filterError: parsed.error });
			return;
		}
		if (parsed.words.trim() === "") {
			this.#set({ hits: [], searched: false }, ["filterError"]);
			return;
		}
		const index = this.#openIndex();
		if (index === undefined) return;
		const hits = index.search(parsed.words, {
			...parsed.filters,
			cwd: scope === "project" ? this.#options.cwd : undefined,
			limit: this.#options.limit ?? DEFAULT_LIMIT,
		});
		this.#set({ hits, searched: true }, ["filterError", "error"]);
	}

	#refresh(): Promise<void> {
		const index = this.#openIndex();
		if (index === undefined) return Promise.resolve();
		// One refresh at a time; opening again while one runs waits for it.
		this.#refreshing ??= (async () => {
			this.#set({ refreshing: true });
			try {
				await index.refresh();
				if (!this.#disposed) this.#run();
			} catch (error) {
				if (!this.#disposed) this.#set({ error: `Could not update the search index: ${errorText(error)}` });
			} finally {
				this.#refreshing = undefined;
				if (!this.#disposed) this.#set({ refreshing: false });
			}
		})();
		return this.#refreshing;
	}

	/**
	 * Opens a hit: switches to its session when it is not the open one (as /resume does), then moves
	 * the leaf to the entry if it is on the active path (as /tree does without a summary), or asks
	 * for the tree view when the entry sits on another branch.
	 */
	async openHit(hit: SearchHit): Promise<OpenHitOutcome> {
		const current = this.#options.session().sessionManager.getSessionFile();
		let switched = false;
		if (current === undefined || resolve(current) !== resolve(hit.sessionPath)) {
			const outcome = await this.#options.resume(hit.sessionPath);
			if (outcome !== "resumed") return { kind: outcome };
			switched = true;
		}
		return this.goToEntry(hit, switched);
	}

	/** The second half of `openHit`, once the hit's session is open (after a locked-session choice too). */
	async goToEntry(hit: SearchHit, switched: boolean): Promise<OpenHitOutcome> {
		const session = this.#options.session();
		const manager = session.sessionManager;
		const id = hit.entryId;
		if (id === null || manager.getEntry(id) === undefined) return { kind: "missing", switched };
		if (!manager.getBranchSkeleton().some((entry) => entry.id === id)) return { kind: "tree", entryId: id };
		const result = await session.navigateTree(id, { summarize: false });
		return result.editorText === undefined ? { kind: "moved" } : { kind: "moved", editorText: result.editorText };
	}

	/** Waits for a running refresh, then closes the index. */
	async dispose(): Promise<void> {
		this.#disposed = true;
		await this.#refreshing;
		this.#index?.close();
		this.#index = undefined;
	}
}
