import { useCallback, useEffect, useRef } from "react";
import type { ChatController } from "../controllers/chat-controller.js";
import type { ResumeOutcome, SelectorController } from "../controllers/selector-controller.js";
import type { EarlyResume } from "./early-picker.js";
import type { LockedChoice } from "./locked-session-choice.js";

/** What the resume flow needs from the app. */
export interface ResumeFlowHost {
	readonly selector: SelectorController;
	readonly chat: ChatController;
	/** Clears the screen and redraws the history (a resumed session has another one). */
	readonly redraw: () => void;
	readonly showChat: () => void;
	readonly showLocked: (path: string) => void;
	/** A search hit waiting on the locked choice goes on to its entry: true when it took over. */
	readonly afterLocked: (outcome: ResumeOutcome | "cancel", opened: string) => boolean;
}

/** What the picker and the locked-session screen call. */
export interface ResumeFlow {
	/** Resumes a picked session; a session open elsewhere leads to the locked-session choice. */
	readonly pick: (path: string) => void;
	/** Acts on the locked-session choice for `path`. */
	readonly chooseLocked: (path: string, choice: LockedChoice) => void;
	/** Reports a resume's outcome in the chat. */
	readonly report: (outcome: ResumeOutcome, success: string) => void;
}

/**
 * Picking a session, the locked-session choice, and the pick handed over from the picker drawn
 * before the app loaded (`xcsh --resume`): one flow, so all three report alike.
 */
export function useResumeFlow(host: ResumeFlowHost, early: EarlyResume | undefined): ResumeFlow {
	const { selector, chat, redraw, showChat, showLocked, afterLocked } = host;
	const report = useCallback(
		(outcome: ResumeOutcome, success: string) => {
			if (outcome === "resumed") {
				redraw();
				chat.notice("info", success);
			} else if (outcome === "cancelled") chat.notice("warning", "Resume cancelled by an extension");
			else chat.notice("error", `Could not resume: ${selector.getSnapshot().error ?? "unknown error"}`);
		},
		[redraw, chat, selector],
	);

	const pick = useCallback(
		(path: string) => {
			void selector.resumeSession(path).then((outcome) => {
				if (outcome === "locked") return showLocked(path);
				showChat();
				report(outcome, "Resumed session");
			});
		},
		[selector, showLocked, showChat, report],
	);

	const chooseLocked = useCallback(
		(path: string, choice: LockedChoice) => {
			showChat();
			if (choice === "cancel") {
				afterLocked("cancel", "");
				chat.notice("info", "Resume cancelled");
				return;
			}
			const run = choice === "fork" ? selector.resumeAsFork(path) : selector.resumeSession(path, { readOnly: true });
			const opened =
				choice === "fork" ? "Forked the session into a new one here" : "Opened read-only: /fork to continue in a copy";
			// A search hit that led here goes on to its entry; otherwise report as the picker does.
			void run.then((outcome) => afterLocked(outcome, opened) || report(outcome, opened));
		},
		[selector, chat, showChat, afterLocked, report],
	);

	// The early pick happened before this app existed: report it once.
	const handedOver = useRef(false);
	useEffect(() => {
		if (!early || handedOver.current) return;
		handedOver.current = true;
		const { outcome, path, error } = early;
		if (outcome === "failed") chat.notice("error", `Could not resume: ${error ?? "unknown error"}`);
		// Picked again here, so the locked screen gets the holder's message from this app's picker.
		else if (outcome === "locked") pick(path);
		else report(outcome, "Resumed session");
	}, [early, chat, pick, report]);

	return { pick, chooseLocked, report };
}
