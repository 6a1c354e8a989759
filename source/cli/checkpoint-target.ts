import type { CheckpointTree } from "../checkpoints/checkpoint-timeline.js";
import { GIT_MISSING_NOTICE, gitAvailable } from "../checkpoints/git-process.js";
import { sessionStore } from "../checkpoints/project-store.js";
import { RestoreError } from "../checkpoints/restore.js";
import type { ShadowRepo } from "../checkpoints/shadow-repo.js";
import { safeLine } from "../render/safe-text.js";
import type { EntryShape } from "../session/session-entries.js";
import type { CliIo } from "./cli-io.js";
import { sessionFileOf } from "./session-lookup.js";

/** Exit codes of the checkpoint commands. */
export const EXIT = { done: 0, refused: 1, badInput: 2 } as const;

/** The session file a `<session-file|id>` argument names; says why on stderr when there is none. */
export async function sessionPathOf(value: string | undefined, usage: string, io: CliIo): Promise<string | undefined> {
	if (!value) {
		io.stderr(`${usage}\n`);
		return undefined;
	}
	return sessionFileOf(value, io);
}

/** An entry id or a unique prefix of one; says why on stderr when it names none or several. */
export function entryIdOf(shapes: Iterable<EntryShape>, value: string, io: CliIo): string | undefined {
	const skeleton = [...shapes];
	const exact = skeleton.find((shape) => shape.id === value);
	if (exact) return exact.id;
	const matches = value.length > 0 ? skeleton.filter((shape) => shape.id.startsWith(value)) : [];
	if (matches.length === 1) return matches[0]!.id;
	io.stderr(
		matches.length === 0
			? `No entry ${safeLine(value)} in this session (xcsh checkpoints <session> lists them)\n`
			: `Entry id ${safeLine(value)} is ambiguous: ${matches.map((m) => m.id).join(", ")}\n`,
	);
	return undefined;
}

/** The project's checkpoint store holding the session's snapshots, or undefined (said on stderr) when git is missing. */
export async function storeFor(projectDir: string, tree: CheckpointTree, io: CliIo): Promise<ShadowRepo | undefined> {
	if (!(await gitAvailable())) {
		io.stderr(`xcsh: ${GIT_MISSING_NOTICE}\n`);
		return undefined;
	}
	return sessionStore(projectDir, tree);
}

/** A restore that cannot be done (no such entry, no checkpoint, nothing to undo) as one line and exit 2; anything else is rethrown. */
export function badInputOf(error: unknown, io: CliIo): number {
	if (!(error instanceof RestoreError)) throw error;
	io.stderr(`${safeLine(error.message)}\n`);
	return EXIT.badInput;
}
