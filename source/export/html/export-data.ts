import type { SessionHeader, StoredEntry } from "../../session/types.js";

/** A tool definition as the agent state holds it (the parameters are a JSON schema). */
export interface ExportToolDefinition {
	name: string;
	description: string;
	parameters: unknown;
}

/** The agent state an interactive export adds to the session. */
export interface ExportState {
	systemPrompt?: string;
	tools?: readonly ExportToolDefinition[];
}

/** What the HTML embeds as JSON in `#session-data`: the whole session plus the agent state. */
export interface ExportData {
	header: SessionHeader;
	entries: readonly StoredEntry[];
	/** The file's leaf: the end of the active path. */
	leafId: string | null;
	systemPrompt?: string;
	tools?: readonly ExportToolDefinition[];
	exportedAt: string;
}
