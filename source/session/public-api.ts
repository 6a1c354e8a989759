// The `xcsh/session` entry for people who script xcsh: what a program needs to open, read, append
// to and list sessions without the CLI. Everything here is part of the package's public surface.

export { MemorySessionStorage } from "./memory-session-storage.js";
export { buildContextItems, buildSessionContext, type ContextItem, type ContextItems } from "./session-context.js";
export { findMostRecentSession, getRecentSessions, type RecentSessionInfo } from "./session-discovery.js";
export { loadEntriesFromFile } from "./session-loader.js";
export { type LockInfo, SessionLockedError } from "./session-lock.js";
export { type SessionInitOptions, type SessionLoadReport, SessionManager } from "./session-manager.js";
// ContinueOptions, ForkResult, OpenFileOptions, OpenOptions, ReadOnlyReason, StorageOptions.
export type * from "./session-manager-types.js";
export {
	FileSessionStorage,
	type SessionStorage,
	type SessionStorageWriter,
	type StorageStat,
	type WriterMode,
} from "./session-storage.js";
export {
	type BranchSummaryEntry,
	type CompactionEntry,
	CURRENT_SESSION_VERSION,
	type CustomEntry,
	type CustomMessageEntry,
	type FileEntry,
	isKnownEntry,
	type LabelEntry,
	type ModeChangeEntry,
	type ModelChangeEntry,
	type SessionContext,
	type SessionEntry,
	type SessionHeader,
	type SessionInfo,
	type SessionInitEntry,
	type SessionMessageEntry,
	type SessionTreeNode,
	type StoredEntry,
	type ThinkingLevelChangeEntry,
	type TtsrInjectionEntry,
	type UnknownSessionEntry,
} from "./types.js";
