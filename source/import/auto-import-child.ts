import { acquireAutoImportLock } from "./auto-import-lock.js";
import { arrivalsOf, type ImportArrivals } from "./auto-import-summary.js";
import { importPaths } from "./import-run.js";
import { autoImportHomes } from "./scan.js";

/** A source the import skipped, and why. */
export interface SkippedSource {
	readonly source: string;
	readonly reason: string;
}

/** What the child says on stdout, one JSON line. */
export type ChildReport =
	| { readonly kind: "busy"; readonly pid: number }
	| { readonly kind: "done"; readonly arrivals: ImportArrivals; readonly skipped: readonly SkippedSource[] };

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Skipped sources listed in a report at most (the count is in `arrivals`). */
const MAX_SKIPPED_LISTED = 20;

/**
 * Runs one background import in this process (auto-import-main.ts's): what is new in the usual
 * places, into the agent dir, one at a time across every xcsh (the auto-import lock).
 */
export async function runAutoImport(cwd: string): Promise<ChildReport> {
	let release: (() => void) | undefined;
	// Listening before the lock is taken: a signal in between would kill with the lock left behind.
	const onSignal = (signal: NodeJS.Signals) => {
		// A kill is safe for the import (nothing is half written); the lock goes with the process.
		release?.();
		process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGHUP" ? 1 : 15));
	};
	for (const signal of SIGNALS) process.once(signal, onSignal);
	const lock = acquireAutoImportLock();
	if (lock.kind === "held") {
		for (const signal of SIGNALS) process.off(signal, onSignal);
		return { kind: "busy", pid: lock.holder.pid };
	}
	release = lock.release;
	try {
		const homes = autoImportHomes(cwd);
		// No worker threads: in the background there is no hurry, and the person's xcsh needs the cores.
		const results =
			homes.length === 0
				? []
				: await importPaths(
						homes.map((home) => home.path),
						{ from: "auto", dryRun: false, cwd, cwdGiven: false, threads: 0 },
					);
		const skipped = results
			.flatMap((result) => (result.status === "skipped" ? [{ source: result.source, reason: result.reason }] : []))
			.slice(0, MAX_SKIPPED_LISTED);
		return { kind: "done", arrivals: arrivalsOf(results), skipped };
	} finally {
		for (const signal of SIGNALS) process.off(signal, onSignal);
		lock.release();
	}
}
