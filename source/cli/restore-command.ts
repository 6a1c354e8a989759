import type { RestoreMode } from "../checkpoints/checkpoint-data.js";
import {
	applyRestore,
	filesAtRisk,
	planRestore,
	type RestoreOutcome,
	type RestorePlan,
	type RestoreRequest,
} from "../checkpoints/restore.js";
import { safeJson, safeLine } from "../render/safe-text.js";
import { SessionLockedError } from "../session/session-lock.js";
import { SessionManager } from "../session/session-manager.js";
import { badInputOf, EXIT, entryIdOf, sessionPathOf, storeFor } from "./checkpoint-target.js";
import type { CliIo } from "./cli-io.js";

/** Printed (exit 2) when the arguments do not make a restore. */
export const RESTORE_USAGE =
	"Usage: xcsh restore <session.jsonl | session-id> <entry-id> [--code-only | --conversation-only] [--dry-run] [--yes] [--json], or xcsh restore <session> --undo";

/** Flags of `xcsh restore`. */
export interface RestoreFlags {
	codeOnly: boolean;
	conversationOnly: boolean;
	dryRun: boolean;
	yes: boolean;
	json: boolean;
	undo: boolean;
}

function modeOf(flags: RestoreFlags): RestoreMode {
	if (flags.codeOnly) return "code";
	if (flags.conversationOnly) return "conversation";
	return "both";
}

const MODE_WORDS: Record<RestoreMode, string> = {
	both: "code and conversation",
	code: "code",
	conversation: "conversation",
};

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function describePlan(plan: RestorePlan, risky: readonly string[]): string {
	const lines = [`Would restore ${MODE_WORDS[plan.mode]} to ${plan.targetId ?? "the start"}`];
	for (const path of plan.writes) lines.push(`  write  ${safeLine(path)}`);
	for (const path of plan.trash) lines.push(`  trash  ${safeLine(path)}`);
	for (const path of risky) lines.push(`  changed outside xcsh: ${safeLine(path)}`);
	return `${lines.join("\n")}\n`;
}

function describeOutcome(outcome: RestoreOutcome, session: string): string {
	const { plan } = outcome;
	const what = plan.undoOf
		? "Undid the last restore"
		: `Restored ${MODE_WORDS[plan.mode]} to ${plan.targetId ?? "the start"}`;
	const files =
		plan.commit === undefined
			? ""
			: `: ${plural(outcome.written.length, "file")} written, ${plural(outcome.trashed.length, "file")} moved to the trash${outcome.trashDir ? ` (${safeLine(outcome.trashDir)})` : ""}`;
	return `${what}${files}\nUndo with: xcsh restore ${safeLine(session)} --undo\n`;
}

function jsonOf(plan: RestorePlan, risky: readonly string[], outcome: RestoreOutcome | undefined): string {
	return safeJson({
		mode: plan.mode,
		targetId: plan.targetId,
		leafId: plan.leafId ?? null,
		undo: plan.undoOf !== undefined,
		dryRun: outcome === undefined,
		writes: plan.writes,
		trash: plan.trash,
		changedOutside: risky,
		...(outcome ? { guard: outcome.guard, trashDir: outcome.trashDir ?? null, markerId: outcome.markerId } : {}),
	});
}

async function openSession(path: string, readOnly: boolean, io: CliIo): Promise<SessionManager | undefined> {
	try {
		return readOnly
			? await SessionManager.openReadOnly(path)
			: await SessionManager.open(path, { mustExist: true, breadcrumb: false });
	} catch (error) {
		if (error instanceof SessionLockedError) {
			io.stderr(`${safeLine(path)} is open in another xcsh: restore it there, or close it first\n`);
			return undefined;
		}
		io.stderr(`${safeLine(error instanceof Error ? error.message : String(error))}\n`);
		return undefined;
	}
}

/** `xcsh restore`: files and/or conversation back to an entry, or `--undo` of the last restore. */
export async function runRestoreCommand(args: readonly string[], flags: RestoreFlags, io: CliIo): Promise<number> {
	if (flags.codeOnly && flags.conversationOnly) {
		io.stderr("--code-only and --conversation-only cannot go together\n");
		return EXIT.badInput;
	}
	const [sessionArg, entryArg, extra] = args;
	if ((flags.undo ? entryArg : entryArg === undefined) || extra !== undefined) {
		io.stderr(`${RESTORE_USAGE}\n`);
		return EXIT.badInput;
	}
	const path = await sessionPathOf(sessionArg, RESTORE_USAGE, io);
	if (!path) return EXIT.badInput;
	const session = await openSession(path, flags.dryRun, io);
	if (!session) return EXIT.refused;
	try {
		const repo = await storeFor(session.getCwd(), session, io);
		if (!repo) return EXIT.refused;
		let request: RestoreRequest = { kind: "undo" };
		if (!flags.undo) {
			const entryId = entryIdOf(session.getSkeleton(), entryArg!, io);
			if (!entryId) return EXIT.badInput;
			request = { kind: "entry", entryId, mode: modeOf(flags) };
		}
		const plan = await planRestore(session, repo, request);
		const risky = filesAtRisk(plan);
		if (flags.dryRun) {
			io.stdout(flags.json ? `${jsonOf(plan, risky, undefined)}\n` : describePlan(plan, risky));
			return EXIT.done;
		}
		if (risky.length > 0 && !flags.yes) {
			for (const file of risky) io.stderr(`  ${safeLine(file)}\n`);
			io.stderr(
				`Refused: ${plural(risky.length, "file")} changed outside xcsh since its last checkpoint would be overwritten; run again with --yes (--undo brings them back)\n`,
			);
			return EXIT.refused;
		}
		const outcome = await applyRestore(session, repo, plan);
		io.stdout(flags.json ? `${jsonOf(plan, risky, outcome)}\n` : describeOutcome(outcome, sessionArg!));
		return EXIT.done;
	} catch (error) {
		return badInputOf(error, io);
	} finally {
		await session.close();
	}
}
