import type { ChatController } from "./chat-controller.js";
import type { KeyAction } from "./keymap.js";
import type { TranscriptViewport } from "./transcript-viewport.js";

/** Rows the mouse wheel scrolls per notch. */
export const WHEEL_ROWS = 3;

/** What the transcript keys act on. */
interface TranscriptKeyTarget {
	readonly chat: ChatController;
	readonly viewport: TranscriptViewport;
}

/**
 * The chat screen's transcript keys: PgUp/PgDn a page, Shift+↑/↓ a row, End (on an empty editor)
 * back to the end, Ctrl+T thinking and Ctrl+O tool output across the transcript. True when the key
 * was one of them.
 */
export function applyTranscriptKey(target: TranscriptKeyTarget, action: KeyAction, editorEmpty: boolean): boolean {
	const { chat, viewport } = target;
	switch (action) {
		case "pageUp":
			viewport.page(-1);
			return true;
		case "pageDown":
			viewport.page(1);
			return true;
		case "scrollUp":
			viewport.scrollBy(-1);
			return true;
		case "scrollDown":
			viewport.scrollBy(1);
			return true;
		case "end":
			if (!editorEmpty) return false;
			viewport.toBottom();
			return true;
		case "toggleThinking":
			chat.toggleThinking();
			return true;
		case "toggleToolOutput":
			chat.toggleToolOutput();
			return true;
		default:
			return false;
	}
}
