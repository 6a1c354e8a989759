import { resolve } from "node:path";
import { type LockHolderState, sessionFileOf, unlockSession } from "../doctor/unlock.js";
import type { LockInfo } from "../session/session-lock.js";
import type { CliIo } from "./cli-io.js";

function since(holder: LockInfo): string {
	return holder.startedAt ? `, since ${holder.startedAt}` : "";
}

/** The holder, as shown before the lock is broken. */
function describeHolder(state: Exclude<LockHolderState, { kind: "none" }>): string {
	switch (state.kind) {
		case "unreadable":
			return `unreadable (${state.bytes} bytes, last written ${state.modifiedAt})`;
		case "dead":
			return `pid ${state.holder.pid}${since(state.holder)}, no longer running`;
		case "other-host":
			return `pid ${state.holder.pid} on ${state.holder.host}${since(state.holder)}, another host (cannot be checked from here)`;
		case "other-process":
			return `pid ${state.holder.pid}${since(state.holder)}, now another program (the xcsh that locked it is gone)`;
		case "live-xcsh":
			return `pid ${state.holder.pid}${since(state.holder)}, a running xcsh on this host`;
	}
}

/** `xcsh doctor --unlock <session.jsonl | session.jsonl.lock>`: 0 removed or not locked, 1 refused. */
export function runUnlockCommand(arg: string, io: CliIo): number {
	const outcome = unlockSession(sessionFileOf(resolve(io.cwd, arg)));
	switch (outcome.kind) {
		case "not-locked":
			io.stdout(`Not locked: ${outcome.lockPath} does not exist\n`);
			return 0;
		case "removed":
			io.stdout(`Lock ${outcome.lockPath}: ${describeHolder(outcome.state)}\nRemoved ${outcome.lockPath}\n`);
			return 0;
		case "refused":
			io.stdout(`Lock ${outcome.lockPath}: ${describeHolder({ kind: "live-xcsh", holder: outcome.holder })}\n`);
			io.stderr(`Not removed: the session is open in a running xcsh (pid ${outcome.holder.pid}); close it there\n`);
			return 1;
		case "changed":
			io.stderr(`Not removed: ${outcome.lockPath} changed while it was checked; run again\n`);
			return 1;
	}
}
