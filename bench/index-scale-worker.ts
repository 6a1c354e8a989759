/**
 * One generator process of bench/index-scale-data.ts: writes every `workers`-th planned session
 * starting at `worker`, and reports progress to the parent over IPC.
 * Args: <root> <sessions> <worker> <workers>.
 */
import { mkdirSync, utimesSync } from "node:fs";
import { dirname } from "node:path";
import { writeSessionFile } from "./generate-sessions.js";
import { appendTurn, layout, PLANTED_PHRASE, planSessions } from "./index-scale-data.js";

const [root, sessions, worker, workers] = process.argv.slice(2);
if (root === undefined || workers === undefined) throw new Error("usage: index-scale-worker <root> <n> <i> <of>");
const { agentDir } = layout(root);
const plan = planSessions(root, Number(sessions)).filter((_, i) => i % Number(workers) === Number(worker));
let pending = { sessions: 0, bytes: 0 };
for (const session of plan) {
	mkdirSync(dirname(session.path), { recursive: true });
	const written = writeSessionFile(session.path, {
		entries: session.entries,
		agentDir,
		seed: session.seed,
		cwd: session.cwd,
		sessionId: session.sessionId,
		startMs: session.startMs,
		...(session.title ? { title: session.title } : {}),
	});
	let endMs = written.endMs;
	if (session.planted) {
		const text = `Before the release, remember the ${PLANTED_PHRASE} checklist from the old deploy notes.`;
		endMs = appendTurn(session.path, session.seed, text);
	}
	// The file's mtime is its last entry's time, as if the session had been written back then.
	utimesSync(session.path, endMs / 1000, endMs / 1000);
	pending = { sessions: pending.sessions + 1, bytes: pending.bytes + written.bytes };
	if (pending.sessions >= 25) {
		process.send?.(pending);
		pending = { sessions: 0, bytes: 0 };
	}
}
if (pending.sessions > 0) process.send?.(pending);
