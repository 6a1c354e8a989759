import { readFileSync } from "node:fs";

/**
 * When a process started, in clock ticks since boot (field 22 of /proc/<pid>/stat): with the pid
 * it names one process, so a pid reused by another program is told apart. Undefined where /proc
 * is not available or the process is gone.
 */
export function processStartOf(pid: number): string | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// The command name (field 2) may hold spaces and parentheses: count fields after the last ")".
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		return fields[19];
	} catch {
		return undefined;
	}
}
