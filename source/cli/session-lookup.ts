import { resolve } from "node:path";
import { listAllSessions, listProjectSessions } from "../index/session-listing.js";
import { safeLine } from "../render/safe-text.js";
import { looksLikePath } from "../session/session-paths.js";
import type { SessionInfo } from "../session/types.js";

/** What a `--resume`-style value resolved to. */
export type SessionLookup =
	| { kind: "path"; path: string }
	| { kind: "found"; session: SessionInfo; scope: "project" | "global" }
	| { kind: "ambiguous"; matches: SessionInfo[] }
	| { kind: "none" };

function matchPrefix(sessions: readonly SessionInfo[], prefix: string): SessionInfo[] {
	const lower = prefix.toLowerCase();
	return sessions.filter((s) => s.id.toLowerCase().startsWith(lower));
}

/**
 * Resolves a path or session-id prefix: a path is used as is; a prefix is looked up in the
 * project first, then (without an explicit session dir) across every project.
 */
export async function lookupSession(value: string, cwd: string, sessionDir?: string): Promise<SessionLookup> {
	if (looksLikePath(value)) return { kind: "path", path: value };
	const local = matchPrefix(await listProjectSessions(cwd, sessionDir), value);
	if (local.length === 1) return { kind: "found", session: local[0]!, scope: "project" };
	if (local.length > 1) return { kind: "ambiguous", matches: local };
	if (sessionDir !== undefined) return { kind: "none" };
	const global = matchPrefix(await listAllSessions(), value);
	if (global.length === 1) return { kind: "found", session: global[0]!, scope: "global" };
	if (global.length > 1) return { kind: "ambiguous", matches: global };
	return { kind: "none" };
}

/** The session file a `<session-file|id>` argument names, or undefined after saying why on stderr. */
export async function sessionFileOf(
	value: string,
	io: { cwd: string; stderr: (text: string) => void },
	sessionDir?: string,
): Promise<string | undefined> {
	const lookup = await lookupSession(value, io.cwd, sessionDir);
	switch (lookup.kind) {
		case "path":
			return resolve(io.cwd, lookup.path);
		case "found":
			return lookup.session.path;
		case "ambiguous":
			io.stderr(
				`Session id ${safeLine(value)} is ambiguous: ${safeLine(lookup.matches.map((m) => m.id).join(", "))}\n`,
			);
			return undefined;
		case "none":
			io.stderr(`No session found for ${safeLine(value)}\n`);
			return undefined;
	}
}
