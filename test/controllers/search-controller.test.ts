import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
	BRANCH_NOTICE,
	MOVED_NOTICE,
	missingEntryNotice,
	SearchController,
	type SearchControllerOptions,
	type SearchIndex,
	type SearchSnapshot,
} from "../../controllers/search-controller.js";
import type { ResumeOutcome } from "../../controllers/selector-controller.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { timeError } from "../../source/index/search-filters.js";
import { type SearchHit, SessionIndex } from "../../source/index/session-index.js";
import { AgentSession, modelRef } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const DAY = 86_400_000;

/** hello → hi → { zanzibar question → zanzibar answer, other question → other answer (last written: the leaf) } */
async function branchedSession(cwd: string): Promise<{ path: string; ids: Record<string, string> }> {
	const sm = await SessionManager.create(cwd);
	const hello = sm.appendMessage(userMessage("hello walrus"));
	const hi = sm.appendMessage(assistantMessage("hi walrus friend"));
	const question = sm.appendMessage(userMessage("tell me about zanzibar"));
	const answer = sm.appendMessage(assistantMessage("zanzibar is an archipelago"));
	sm.branch(hi);
	const other = sm.appendMessage(userMessage("something else"));
	const otherAnswer = sm.appendMessage(assistantMessage("fine, walrus"));
	const path = sm.getSessionFile()!;
	await sm.close();
	return { path, ids: { hello, hi, question, answer, other, otherAnswer } };
}

async function linearSession(cwd: string, words: string): Promise<string> {
	const sm = await SessionManager.create(cwd);
	sm.appendMessage(userMessage(`question about ${words}`));
	sm.appendMessage(assistantMessage(`answer about ${words}`));
	const path = sm.getSessionFile()!;
	await sm.close();
	return path;
}

async function indexNow(): Promise<void> {
	const index = SessionIndex.open();
	await index.refresh();
	index.close();
}

describe("SearchController", () => {
	const temp = useTempAgentDir();
	let alpha: string;
	let beta: string;
	const live: { controller?: SearchController; session?: AgentSession } = {};

	beforeEach(() => {
		alpha = join(temp.root, "alpha");
		beta = join(temp.root, "beta");
	});
	afterEach(async () => {
		await live.controller?.dispose();
		await live.session?.dispose();
		live.controller = undefined;
		live.session = undefined;
	});

	async function openSession(cwd: string): Promise<AgentSession> {
		live.session = await AgentSession.create({
			sessionManager: await SessionManager.create(cwd),
			models: { find: (ref) => (ref === modelRef(OFFLINE_MODEL) ? OFFLINE_MODEL : undefined), getApiKey: () => "k" },
			model: OFFLINE_MODEL,
		});
		return live.session;
	}

	function make(overrides: Partial<SearchControllerOptions> = {}): SearchController {
		const session = live.session;
		live.controller = new SearchController({
			cwd: alpha,
			session: () => {
				if (!session) throw new Error("no session in this test");
				return session;
			},
			resume: async (path) => ((await session?.switchSession(path)) ? "resumed" : "cancelled"),
			...overrides,
		});
		return live.controller;
	}

	function snapshots(controller: SearchController): SearchSnapshot[] {
		const seen: SearchSnapshot[] = [];
		controller.subscribe(() => seen.push(controller.getSnapshot()));
		return seen;
	}

	it("answers at once from the index as it is, then again once the index has caught up", async () => {
		await linearSession(alpha, "kafka lag");
		await indexNow();
		await linearSession(alpha, "kafka topics");
		const controller = make();
		const refreshed = controller.open("kafka");
		const first = controller.getSnapshot();
		expect(first).toMatchObject({ query: "kafka", scope: "project", searched: true, refreshing: true });
		expect(first.hits.map((h) => h.snippet).sort()).toEqual(["answer about [kafka] lag", "question about [kafka] lag"]);
		await refreshed;
		const second = controller.getSnapshot();
		expect(second.refreshing).toBe(false);
		expect(second.hits).toHaveLength(4);
		expect(second.hits.map((h) => h.snippet)).toContain("question about [kafka] topics");
	});

	it("searches as you type; this project by default, Tab for every project", async () => {
		await linearSession(alpha, "kafka");
		await linearSession(beta, "kafka consumer");
		const controller = make();
		await controller.open("");
		expect(controller.getSnapshot()).toMatchObject({ searched: false, hits: [] });
		controller.setQuery("kaf");
		expect(controller.getSnapshot().hits.every((h) => h.cwd === alpha)).toBe(true);
		expect(controller.getSnapshot().hits).toHaveLength(2);
		controller.toggleScope();
		expect(controller.getSnapshot().scope).toBe("all");
		expect(controller.getSnapshot().hits).toHaveLength(4);
		controller.setQuery("kafka consumer");
		expect(controller.getSnapshot().hits.map((h) => h.cwd)).toEqual([beta, beta]);
		controller.toggleScope();
		expect(controller.getSnapshot()).toMatchObject({ scope: "project", hits: [] });
		// opening again starts in this project
		controller.toggleScope();
		await controller.open("kafka");
		expect(controller.getSnapshot().scope).toBe("project");
	});

	it("takes role:, since: and until: from the query; a bad one is shown and nothing is searched", async () => {
		vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 40 * DAY });
		try {
			await linearSession(alpha, "kafka old");
		} finally {
			vi.useRealTimers();
		}
		await linearSession(alpha, "kafka new");
		const controller = make();
		await controller.open("kafka role:user");
		expect(
			controller
				.getSnapshot()
				.hits.map((h) => h.snippet)
				.sort(),
		).toEqual(["question about [kafka] new", "question about [kafka] old"]);
		controller.setQuery("kafka role:user since:7d");
		expect(controller.getSnapshot().hits.map((h) => h.snippet)).toEqual(["question about [kafka] new"]);
		controller.setQuery("kafka until:1w");
		expect(controller.getSnapshot().hits).toHaveLength(2);
		controller.setQuery("kafka until:1");
		expect(controller.getSnapshot()).toMatchObject({
			hits: [],
			searched: false,
			filterError: timeError("until:", "1"),
		});
		controller.setQuery("kafka until:1w");
		expect(controller.getSnapshot().filterError).toBeUndefined();
		controller.setQuery("role:user");
		expect(controller.getSnapshot()).toMatchObject({ hits: [], searched: false });
	});

	it("says when the index cannot be opened or brought up to date", async () => {
		const broken = make({
			openIndex: () => {
				throw new Error("disk on fire");
			},
		});
		await broken.open("kafka");
		expect(broken.getSnapshot()).toMatchObject({ error: "Search index unavailable: disk on fire", searched: false });
		await broken.dispose();
		const real = SessionIndex.open();
		const failing: SearchIndex = {
			search: (query, options) => real.search(query, options),
			refresh: () => Promise.reject(new Error("read failed")),
			close: () => real.close(),
		};
		const controller = make({ openIndex: () => failing });
		await controller.open("kafka");
		expect(controller.getSnapshot()).toMatchObject({
			error: "Could not update the search index: read failed",
			refreshing: false,
		});
	});

	it("dispose waits for the refresh and closes the index; no results come after it", async () => {
		await linearSession(alpha, "kafka");
		const controller = make();
		const seen = snapshots(controller);
		void controller.open("kafka");
		await controller.dispose();
		// the refresh finished (the session is indexed now) but its answer was never published
		expect(seen.some((s) => s.hits.length > 0)).toBe(false);
		controller.setQuery("kafka more");
		expect(controller.getSnapshot()).toMatchObject({ query: "kafka more", hits: [] });
		const index = SessionIndex.open();
		expect(index.search("kafka")).toHaveLength(2);
		index.close();
	});

	describe("opening a hit", () => {
		async function hitFor(query: string, role: SearchHit["role"]): Promise<SearchHit> {
			const controller = make();
			await controller.open(query);
			controller.toggleScope();
			const hit = controller.getSnapshot().hits.find((h) => h.role === role);
			if (!hit) throw new Error(`no ${role} hit for ${query}`);
			return hit;
		}

		it("on the active path of another session: switches, then moves the leaf to the entry", async () => {
			const { path, ids } = await branchedSession(beta);
			const session = await openSession(alpha);
			const controller = make();
			await controller.open("walrus friend");
			controller.toggleScope();
			const [hit] = controller.getSnapshot().hits;
			expect(hit).toMatchObject({ sessionPath: path, entryId: ids.hi, role: "assistant" });
			expect(await controller.openHit(hit!)).toEqual({ kind: "moved" });
			expect(session.sessionManager.getSessionFile()).toBe(path);
			expect(session.sessionManager.getLeafId()).toBe(ids.hi);
			expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
			expect(MOVED_NOTICE).toBe("Moved to the matching entry; later entries stay reachable in /tree");
		});

		it("a user message: the leaf goes to its parent and its text back to the editor, as in /tree", async () => {
			const { ids } = await branchedSession(beta);
			const session = await openSession(alpha);
			const hit = await hitFor("hello walrus", "user");
			expect(await make().openHit(hit)).toEqual({ kind: "moved", editorText: "hello walrus" });
			expect(hit.entryId).toBe(ids.hello);
			expect(session.sessionManager.getLeafId()).toBeNull();
		});

		it("on an abandoned branch: switches, leaves the leaf alone and asks for the tree on the entry", async () => {
			const { path, ids } = await branchedSession(beta);
			const session = await openSession(alpha);
			const hit = await hitFor("archipelago", "assistant");
			expect(await make().openHit(hit)).toEqual({ kind: "tree", entryId: ids.answer });
			expect(session.sessionManager.getSessionFile()).toBe(path);
			expect(session.sessionManager.getLeafId()).toBe(ids.otherAnswer);
			expect(BRANCH_NOTICE).toBe(
				"The matching entry is on another branch: the tree shows it (Enter goes there, Esc stays on this branch)",
			);
		});

		it("in the open session: no switch, the leaf moves", async () => {
			const session = await openSession(alpha);
			session.sessionManager.appendMessage(userMessage("first narwhal"));
			const answer = session.sessionManager.appendMessage(assistantMessage("narwhal reply"));
			session.sessionManager.appendMessage(userMessage("second"));
			session.sessionManager.appendMessage(assistantMessage("second reply"));
			await session.sessionManager.flush();
			const resume = vi.fn(async (): Promise<ResumeOutcome> => "resumed");
			const controller = make({ resume });
			await controller.open("narwhal reply");
			const [hit] = controller.getSnapshot().hits;
			expect(await controller.openHit(hit!)).toEqual({ kind: "moved" });
			expect(resume).not.toHaveBeenCalled();
			expect(session.sessionManager.getLeafId()).toBe(answer);
		});

		it("an entry the session no longer has (a stale index) opens the session and says so", async () => {
			const { path } = await branchedSession(beta);
			const session = await openSession(alpha);
			const hit = await hitFor("archipelago", "assistant");
			const stale: SearchHit = { ...hit, entryId: "gone1234" };
			expect(await make().openHit(stale)).toEqual({ kind: "missing", switched: true });
			expect(session.sessionManager.getSessionFile()).toBe(path);
			expect(await make().openHit(stale)).toEqual({ kind: "missing", switched: false });
			expect(await make().openHit({ ...hit, entryId: null })).toEqual({ kind: "missing", switched: false });
			expect(missingEntryNotice(true)).toBe(
				"Opened the session, but the matching entry is no longer in it (the search index was out of date)",
			);
			expect(missingEntryNotice(false)).toBe(
				"The matching entry is no longer in this session (the search index was out of date)",
			);
		});

		it("a switch that did not happen (locked, cancelled, failed) is passed on and nothing moves", async () => {
			await branchedSession(beta);
			const session = await openSession(alpha);
			const hit = await hitFor("archipelago", "assistant");
			for (const outcome of ["locked", "cancelled", "failed"] as const) {
				expect(await make({ resume: async () => outcome }).openHit(hit)).toEqual({ kind: outcome });
			}
			expect(session.sessionManager.getCwd()).toBe(alpha);
			// after the locked-session choice opened it, goToEntry finishes the job
			await session.switchSession(hit.sessionPath, { readOnly: true });
			expect(await make().goToEntry(hit, true)).toEqual({ kind: "tree", entryId: hit.entryId });
		});
	});
});
