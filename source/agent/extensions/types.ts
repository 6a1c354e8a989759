import type { AgentTool } from "@mariozechner/pi-agent-core";

/** Why the active session is about to change. */
export type SessionSwitchReason = "new" | "fork" | "resume";

/** Before the session changes; a handler may cancel by returning `{ cancel: true }`. */
export interface SessionBeforeSwitchEvent {
	type: "session_before_switch";
	reason: SessionSwitchReason;
	/** The file a resume switches to. */
	targetSessionFile?: string;
}

/** After the session changed. */
export interface SessionSwitchEvent {
	type: "session_switch";
	reason: SessionSwitchReason;
	previousSessionFile: string | undefined;
	sessionFile: string | undefined;
}

/** The session started (the app opened it). */
export interface SessionStartEvent {
	type: "session_start";
	sessionFile: string | undefined;
}

/** The leaf moved in the tree (`navigateTree`). */
export interface SessionTreeEvent {
	type: "session_tree";
	oldLeafId: string | null;
	newLeafId: string | null;
	summaryEntryId?: string;
}

/** The leaf moved by branching (`branch` without the tree view). */
export interface SessionBranchEvent {
	type: "session_branch";
	leafId: string | null;
}

/** The app is shutting down. */
export interface SessionShutdownEvent {
	type: "session_shutdown";
}

/** Every event an extension can observe. */
export type ExtensionEvent =
	| SessionBeforeSwitchEvent
	| SessionSwitchEvent
	| SessionStartEvent
	| SessionTreeEvent
	| SessionBranchEvent
	| SessionShutdownEvent;

export type ExtensionEventType = ExtensionEvent["type"];

/** What a `session_before_switch` handler may return. */
export interface BeforeSwitchResult {
	cancel?: boolean;
}

/** What handlers of an event type receive and may return. */
export type ExtensionHandler<K extends ExtensionEventType> = (
	event: Extract<ExtensionEvent, { type: K }>,
) => K extends "session_before_switch"
	? BeforeSwitchResult | undefined | Promise<BeforeSwitchResult | undefined>
	: void | Promise<void>;

/** Why a custom tool's `onSession` is called. */
export type ToolSessionReason = "switch" | "branch" | "start" | "tree" | "shutdown";

/** What a custom tool's `onSession` receives (observational: it cannot cancel anything). */
export interface ToolSessionEvent {
	reason: ToolSessionReason;
	previousSessionFile?: string;
}

/** A tool an extension adds; `onSession` hears about session changes. */
export interface CustomTool extends AgentTool {
	onSession?: (event: ToolSessionEvent) => void | Promise<void>;
}

/** The API an extension's default export is called with. */
export interface ExtensionApi {
	on<K extends ExtensionEventType>(type: K, handler: ExtensionHandler<K>): void;
	registerTool(tool: CustomTool): void;
}

/** An extension module's default export. */
export type ExtensionFactory = (api: ExtensionApi) => void | Promise<void>;
