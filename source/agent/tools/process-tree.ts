import { setTimeout as delay } from "node:timers/promises";

/** How long the shell gets to exit on SIGHUP before its process group is SIGKILLed. */
export const KILL_GRACE_MS = 250;

// After SIGKILL the exit is only waited for this long, so a wedged pty cannot hang the tool forever.
const EXIT_WAIT_MS = 2000;

/**
 * Stops a pty command: `killLeader` (pty.kill: SIGHUP, as when a terminal closes), then SIGKILL to the
 * whole process group (the pty child leads its own session and group) if anything in it is still alive.
 * Resolves once `exited` settles or the wait runs out.
 */
export async function killProcessTree(pid: number, killLeader: () => void, exited: Promise<unknown>): Promise<void> {
	killLeader();
	await Promise.race([exited, delay(KILL_GRACE_MS, undefined, { ref: false })]);
	// Members of the group can outlive the shell: nohup'd jobs, or commands that trap SIGHUP.
	if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
	await Promise.race([exited, delay(EXIT_WAIT_MS, undefined, { ref: false })]);
}

/** True while any process in the group led by `pgid` exists. */
export function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch {
		// Already gone between the check and the kill.
	}
}
