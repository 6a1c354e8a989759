import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { safeDeep } from "../source/render/safe-text.js";
import { entryMessage } from "../source/session/message-shape.js";
import { createCustomMessage } from "../source/session/messages.js";
import type { EntryShape } from "../source/session/session-entries.js";
import type { SessionManager } from "../source/session/session-manager.js";

/** Entry types the transcript shows (what `entryMessage` turns into a message). */
export const TRANSCRIPT_TYPES = new Set(["message", "custom_message", "branch_summary", "compaction"]);

/** The message of an entry read from disk; a body that cannot be read says so in its place. */
function readEntryMessage(manager: SessionManager, shape: EntryShape): AgentMessage {
	const { id } = shape;
	let problem: string;
	try {
		const entry = manager.entryOf(shape);
		const message = entry && entryMessage(entry);
		if (message) return message;
		problem = "it is not a message";
	} catch (error) {
		problem = error instanceof Error ? error.message : String(error);
	}
	return createCustomMessage(
		"unreadable",
		`(entry ${id} could not be shown: ${problem})`,
		true,
		undefined,
		new Date().toISOString(),
	);
}

/**
 * A history item whose message is read and made safe when first drawn: a 100,000-message session
 * opens without sanitising every message (or, in a big session, reading it from disk). Small
 * classes with their kind and id on the prototype: half a million are made when a big session opens.
 */
abstract class HistoryItem {
	readonly #shape: EntryShape;
	#safe: AgentMessage | undefined;

	constructor(shape: EntryShape) {
		this.#shape = shape;
	}

	get kind(): "message" {
		return "message";
	}

	/** The entry's id (unique in a session, never "i…" like the other items). */
	get id(): string {
		return this.#shape.id;
	}

	get message(): AgentMessage {
		this.#safe ??= safeDeep(this.read(this.#shape));
		return this.#safe;
	}

	protected abstract read(shape: EntryShape): AgentMessage;
}

/** An item whose message was in memory when the transcript was built. */
export class ResidentItem extends HistoryItem {
	readonly #message: AgentMessage;

	constructor(shape: EntryShape, message: AgentMessage) {
		super(shape);
		this.#message = message;
	}

	protected read(): AgentMessage {
		return this.#message;
	}
}

/** An item whose entry is read from the session's file when drawn. */
export class OnDiskItem extends HistoryItem {
	readonly #manager: SessionManager;

	constructor(shape: EntryShape, manager: SessionManager) {
		super(shape);
		this.#manager = manager;
	}

	protected read(shape: EntryShape): AgentMessage {
		return readEntryMessage(this.#manager, shape);
	}
}
