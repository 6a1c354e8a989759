import type { AgentMessage, ThinkingLevel } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent } from "@mariozechner/pi-ai";

/** Current on-disk session format version. */
export const CURRENT_SESSION_VERSION = 3;

/** Line 1 of every session file. */
export interface SessionHeader {
	type: "session";
	version?: number;
	id: string;
	timestamp: string;
	cwd: string;
	title?: string;
	/** Opaque lineage marker: a session id or a session path, depending on the flow. */
	parentSession?: string;
	/** v1 headers carry extra fields (provider, modelId, thinkingLevel, branchedFrom); they are kept. */
	[extra: string]: unknown;
}

/** Fields shared by every non-header entry. */
export interface SessionEntryBase {
	type: string;
	id: string;
	parentId: string | null;
	timestamp: string;
}

export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: AgentMessage;
}

export interface ThinkingLevelChangeEntry extends SessionEntryBase {
	type: "thinking_level_change";
	thinkingLevel: ThinkingLevel | string;
}

export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	/** "provider/modelId". Absent in the old v1 shape, which has provider + modelId instead. */
	model?: string;
	role?: string;
	provider?: string;
	modelId?: string;
}

export interface CompactionEntry<T = unknown> extends SessionEntryBase {
	type: "compaction";
	summary: string;
	shortSummary?: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: T;
	preserveData?: Record<string, unknown>;
	fromExtension?: boolean;
}

export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
	type: "branch_summary";
	/** The entry the abandoned branch was left from, or the literal "root". */
	fromId: string;
	summary: string;
	details?: T;
	fromExtension?: boolean;
}

export interface CustomEntry<T = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: T;
}

export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
}

export interface LabelEntry extends SessionEntryBase {
	type: "label";
	targetId: string;
	label: string | undefined;
}

export interface TtsrInjectionEntry extends SessionEntryBase {
	type: "ttsr_injection";
	injectedRules: string[];
}

export interface SessionInitEntry extends SessionEntryBase {
	type: "session_init";
	systemPrompt: string;
	task?: string;
	tools: string[];
	outputSchema?: unknown;
}

export interface ModeChangeEntry extends SessionEntryBase {
	type: "mode_change";
	mode: string;
	data?: Record<string, unknown>;
}

/** The entry taxonomy of the spec. */
export type KnownSessionEntry =
	| SessionMessageEntry
	| ThinkingLevelChangeEntry
	| ModelChangeEntry
	| CompactionEntry
	| BranchSummaryEntry
	| CustomEntry
	| CustomMessageEntry
	| LabelEntry
	| TtsrInjectionEntry
	| SessionInitEntry
	| ModeChangeEntry;

export type KnownEntryType = KnownSessionEntry["type"];

/** An entry of a type this version does not know: kept verbatim, ignored by context building. */
export interface UnknownSessionEntry extends SessionEntryBase {
	type: string;
	[field: string]: unknown;
}

export type SessionEntry = KnownSessionEntry;

/** What a session file holds: the header, then entries (known or not). */
export type FileEntry = SessionHeader | SessionEntry | UnknownSessionEntry;

const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set<KnownEntryType>([
	"message",
	"thinking_level_change",
	"model_change",
	"compaction",
	"branch_summary",
	"custom",
	"custom_message",
	"label",
	"ttsr_injection",
	"session_init",
	"mode_change",
]);

/** Narrows a stored entry to the spec's taxonomy. */
export function isKnownEntry(entry: SessionEntry | UnknownSessionEntry): entry is SessionEntry {
	return KNOWN_ENTRY_TYPES.has(entry.type);
}

/** An entry as stored: one the code knows, or one from a newer xcsh, kept as it was read. */
export type StoredEntry = SessionEntry | UnknownSessionEntry;

/** A node of the session tree returned by `getTree()`. */
export interface SessionTreeNode {
	entry: SessionEntry | UnknownSessionEntry;
	children: SessionTreeNode[];
	label?: string;
}

/** A node of the session tree as a screen reads it: nothing in it can be changed. */
export interface ReadonlySessionTreeNode {
	readonly entry: Readonly<SessionEntry | UnknownSessionEntry>;
	readonly children: readonly ReadonlySessionTreeNode[];
	readonly label?: string;
}

/** What is sent to the model, derived from the path root → leaf. */
export interface SessionContext {
	messages: AgentMessage[];
	thinkingLevel: string;
	/** role → "provider/modelId" */
	models: Record<string, string>;
	injectedTtsrRules: string[];
	mode: string;
	modeData?: Record<string, unknown>;
}

/** Lightweight metadata for pickers and listings. */
export interface SessionInfo {
	id: string;
	path: string;
	cwd: string;
	title?: string;
	parentSession?: string;
	created: Date;
	modified: Date;
	size: number;
	messageCount: number;
	firstMessage: string;
}

/** A line `parseJsonlLenient` could not read. */
export interface JsonlLineError {
	/** 1-based line number in the file. */
	line: number;
	message: string;
}

/** The result of a lenient JSONL parse. */
export interface JsonlParseResult<T = unknown> {
	values: T[];
	errors: JsonlLineError[];
	/** The text did not end with a newline: the last line may be torn. */
	missingFinalNewline: boolean;
}
