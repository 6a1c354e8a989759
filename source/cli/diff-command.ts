import { colourDiff } from "../checkpoints/diff-colour.js";
import { codeStateOf } from "../checkpoints/restore.js";
import { unifiedDiff } from "../checkpoints/tree-diff.js";
import { colourEnabled } from "../render/colour.js";
import { safeLine, safeText } from "../render/safe-text.js";
import { SessionSnapshot } from "../session/session-snapshot.js";
import { FileSessionStorage } from "../session/session-storage.js";
import { badInputOf, EXIT, entryIdOf, sessionPathOf, storeFor } from "./checkpoint-target.js";
import type { CliIo } from "./cli-io.js";

/** Printed (exit 2) when the arguments do not make a diff. */
export const DIFF_USAGE = "Usage: xcsh diff <session.jsonl | session-id> <entry-id> [<entry-id>]";

/** Colour when stdout is a terminal (or FORCE_COLOR asks for it), never under NO_COLOR. */
function wantsColour(env: NodeJS.ProcessEnv = process.env): boolean {
	if (!colourEnabled(env)) return false;
	const forced = env.FORCE_COLOR;
	return (forced !== undefined && forced !== "" && forced !== "0") || process.stdout.isTTY === true;
}

/**
 * `xcsh diff <session> <a> [<b>]`: a unified diff of the files from entry a's checkpoint to entry
 * b's, or to the files on disk now when b is left out.
 */
export async function runDiffCommand(args: readonly string[], io: CliIo): Promise<number> {
	const [sessionArg, fromArg, toArg, extra] = args;
	if (fromArg === undefined || extra !== undefined) {
		io.stderr(`${DIFF_USAGE}\n`);
		return EXIT.badInput;
	}
	const path = await sessionPathOf(sessionArg, DIFF_USAGE, io);
	if (!path) return EXIT.badInput;
	const read = await SessionSnapshot.read(path, new FileSessionStorage());
	if (read.kind !== "ok") {
		io.stderr(`${read.kind === "missing" ? "File not found" : "Not a session file"}: ${safeLine(path)}\n`);
		return EXIT.badInput;
	}
	const tree = read.snapshot;
	try {
		const fromId = entryIdOf(tree.getSkeleton(), fromArg, io);
		const toId = toArg === undefined ? undefined : entryIdOf(tree.getSkeleton(), toArg, io);
		if (!fromId || (toArg !== undefined && !toId)) return EXIT.badInput;
		const from = codeStateOf(tree, fromId);
		const to = toId === undefined ? undefined : codeStateOf(tree, toId);
		const repo = await storeFor(typeof tree.header.cwd === "string" ? tree.header.cwd : io.cwd, tree, io);
		if (!repo) return EXIT.refused;
		const toTree = to === undefined ? (await repo.scratchTree(tree.header.id)).tree : await repo.treeOf(to);
		const diff = await unifiedDiff(repo, await repo.treeOf(from), toTree);
		if (diff.length === 0) {
			io.stdout("No differences.\n");
			return EXIT.done;
		}
		const text = safeText(diff);
		io.stdout(wantsColour() ? colourDiff(text) : text);
		return EXIT.done;
	} catch (error) {
		return badInputOf(error, io);
	} finally {
		tree.close();
	}
}
