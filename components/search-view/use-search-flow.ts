import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ChatController } from "../../controllers/chat-controller.js";
import {
	BRANCH_NOTICE,
	MOVED_NOTICE,
	missingEntryNotice,
	type OpenHitOutcome,
	SearchController,
} from "../../controllers/search-controller.js";
import type { ResumeOutcome, SelectorController } from "../../controllers/selector-controller.js";
import type { SearchHit } from "../../source/index/session-index.js";
import type { AgentSession } from "../../source/session/agent-session.js";

/** What the search flow needs from the app around it. */
export interface SearchFlowHost {
	readonly session: AgentSession;
	/** Switches sessions the way the /resume picker does (locked sessions included). */
	readonly selector: Pick<SelectorController, "resumeSession">;
	readonly chat: Pick<ChatController, "notice">;
	/** Clears the screen and redraws the chat from the session. */
	readonly redraw: () => void;
	/** The /resume picker's report of a switch that did not happen. */
	readonly reportResume: (outcome: ResumeOutcome, success: string) => void;
	readonly showChat: () => void;
	/** Opens the tree view with the selection on an entry. */
	readonly showTree: (entryId: string) => void;
	/** Opens the locked-session choice for a session file. */
	readonly showLocked: (path: string) => void;
	readonly setEditorText: (text: string) => void;
}

/** The search flow's handles for the app. */
export interface SearchFlow {
	readonly controller: SearchController;
	/** Opening a hit: switch if needed, then the chat at the entry, the tree on it, or why not. */
	readonly select: (hit: SearchHit) => void;
	/**
	 * After the locked-session choice: goes on to the hit that led there once the session opened,
	 * showing `opened` (what the choice did) first. False when no hit was waiting (the app reports).
	 */
	readonly afterLocked: (outcome: ResumeOutcome | "cancel", opened: string) => boolean;
}

/**
 * Owns the search controller for the app's lifetime and turns what opening a hit did into screens
 * and notices. A hit whose session is open elsewhere waits through the locked-session choice.
 */
export function useSearchFlow(host: SearchFlowHost): SearchFlow {
	const latest = useRef(host);
	useLayoutEffect(() => {
		latest.current = host;
	});
	const [controller] = useState(
		() =>
			new SearchController({
				// "This project" is the one xcsh was started in, as for the /resume picker.
				cwd: host.session.sessionManager.getCwd(),
				session: () => latest.current.session,
				resume: (path) => latest.current.selector.resumeSession(path),
			}),
	);
	useEffect(() => () => void controller.dispose(), [controller]);
	const pending = useRef<SearchHit | undefined>(undefined);

	const show = useCallback((hit: SearchHit, outcome: OpenHitOutcome, opened?: string) => {
		const ui = latest.current;
		if (outcome.kind === "locked") {
			pending.current = hit;
			ui.showLocked(hit.sessionPath);
			return;
		}
		ui.redraw();
		// After the redraw: it rebuilds the chat from the session, dropping earlier notices.
		if (opened !== undefined) ui.chat.notice("info", opened);
		switch (outcome.kind) {
			case "tree":
				ui.chat.notice("info", BRANCH_NOTICE);
				ui.showTree(outcome.entryId);
				return;
			case "moved":
				ui.showChat();
				ui.chat.notice("info", MOVED_NOTICE);
				if (outcome.editorText !== undefined) ui.setEditorText(outcome.editorText);
				return;
			case "missing":
				ui.showChat();
				ui.chat.notice("warning", missingEntryNotice(outcome.switched));
				return;
			case "cancelled":
			case "failed":
				ui.showChat();
				ui.reportResume(outcome.kind, "");
				return;
		}
	}, []);

	const run = useCallback(
		(hit: SearchHit, task: Promise<OpenHitOutcome>, opened?: string) =>
			void task.then(
				(outcome) => show(hit, outcome, opened),
				(error: unknown) => {
					latest.current.showChat();
					latest.current.chat.notice("error", error instanceof Error ? error.message : String(error));
				},
			),
		[show],
	);

	const select = useCallback(
		(hit: SearchHit) => {
			pending.current = undefined;
			run(hit, controller.openHit(hit));
		},
		[controller, run],
	);

	const afterLocked = useCallback(
		(outcome: ResumeOutcome | "cancel", opened: string) => {
			const hit = pending.current;
			pending.current = undefined;
			if (!hit || outcome !== "resumed") return false;
			run(hit, controller.goToEntry(hit, true), opened);
			return true;
		},
		[controller, run],
	);

	return useMemo(() => ({ controller, select, afterLocked }), [controller, select, afterLocked]);
}
