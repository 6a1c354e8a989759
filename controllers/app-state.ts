import type { PathPrompt } from "../source/checkpoints/session-rewind.js";
import type { ModelChoice } from "../source/commands/types.js";
import type { AgentSession } from "../source/session/agent-session.js";
import type { ChatController } from "./chat-controller.js";
import type { CommandController } from "./command-controller.js";
import type { InputController } from "./input-controller.js";
import type { SearchController } from "./search-controller.js";
import type { SelectorController } from "./selector-controller.js";
import type { TranscriptViewport } from "./transcript-viewport.js";

/** The choices of the locked-session screen. */
export type LockedChoice = "fork" | "read-only" | "cancel";

/** Which screen is showing, with what it shows. */
export type AppScreen =
	| { readonly kind: "chat" }
	| { readonly kind: "resume" }
	| { readonly kind: "search" }
	/** `key` changes whenever the tree must be read again; `selectedId` undefined: the leaf. */
	| { readonly kind: "tree"; readonly key: number; readonly selectedId: string | undefined }
	| {
			readonly kind: "confirm";
			readonly title: string;
			readonly details: readonly string[];
			readonly confirmLabel: string;
			readonly detailsLabel: string;
	  }
	/** `/rewind`: this path's prompts, newest first. */
	| { readonly kind: "rewind"; readonly prompts: readonly PathPrompt[] }
	/** `d` in `/tree`: the diff from an entry's files to the working tree (or why there is none). */
	| { readonly kind: "diff"; readonly entryId: string; readonly title: string; readonly lines: readonly string[] }
	/** The `/model` picker: Enter switches as `/model <ref>` does. */
	| { readonly kind: "model"; readonly current: string; readonly models: readonly ModelChoice[] }
	| { readonly kind: "locked"; readonly path: string; readonly message: string };

/** What the app shows; replaced (never mutated) on every change. */
export interface AppSnapshot {
	readonly screen: AppScreen;
	/** Text to put in the editor; a new `key` replaces what is there. */
	readonly editor: { readonly text: string; readonly key: number };
}

/** Two Ctrl+C presses within this long quit. */
export const DOUBLE_PRESS_MS = 1000;
export const RESUMED = "Resumed session";
export const FORKED = "Forked the session into a new one here";
export const OPENED_READ_ONLY = "Opened read-only: /fork to continue in a copy";
export const RESUME_CANCELLED = "Resume cancelled";
export const QUIT_HINT = "Press Ctrl+C again to quit";
/** The passing confirmation of a `>>` follow-up: the message itself shows once the turn takes it. */
export const QUEUED_FOLLOW_UP = "Queued as a follow-up";
/** How long a passing confirmation stays above the editor. */
export const HINT_MS = 3000;

/** What the app controller drives. */
export interface AppControllerOptions {
	readonly session: AgentSession;
	readonly chat: ChatController;
	readonly commands: CommandController;
	readonly input: InputController;
	readonly selector: SelectorController;
	readonly search: SearchController;
	readonly viewport: TranscriptViewport;
	/** Counts the double Ctrl+C window; tests pass their own clock. */
	readonly now?: () => number;
}
