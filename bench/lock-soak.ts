/**
 * Lock soak: `npm run bench:lock` (LOCK_ROUNDS=100 LOCK_RACERS=4 node --import tsx bench/lock-soak.ts)
 *
 * LOCK_RACERS child processes call acquireLock on the same session file at one instant (a shared
 * start time they spin on), LOCK_ROUNDS times for each starting state: no lock file, a stale lock
 * of a dead pid, an empty lock older than the grace period. Prints per case the rounds, the rounds
 * with two or more holders, the rounds with none, and whether the lock file named the one holder.
 * Exit 1 if any round did not end with exactly one holder.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lockPathFor, readLock } from "../source/session/session-lock.js";
import { deadPid, LockRacers, prepareCase, RACE_CASES, roundFile } from "../test/helpers/lock-race.js";

function intEnv(name: string, fallback: number): number {
	const value = Number(process.env[name]);
	return Number.isInteger(value) && value > 0 ? value : fallback;
}

const ROUNDS = intEnv("LOCK_ROUNDS", 100);
const RACERS = intEnv("LOCK_RACERS", 4);

const dir = mkdtempSync(join(tmpdir(), "xcsh-lock-soak-"));
const racers = await LockRacers.start(RACERS);
let failed = false;
console.log(`${RACERS} processes per round, ${ROUNDS} rounds per case`);
console.log("case             rounds  double holders  no holder  lock names another  errors");
try {
	for (const raceCase of RACE_CASES) {
		const pid = deadPid();
		let doubles = 0;
		let none = 0;
		let mismatched = 0;
		let errors = 0;
		for (let n = 0; n < ROUNDS; n++) {
			const file = roundFile(dir, raceCase, n);
			prepareCase(file, raceCase, pid);
			const round = await racers.race(file, () => readLock(lockPathFor(file))?.pid);
			if (round.holders.length > 1) doubles++;
			if (round.holders.length === 0) none++;
			if (round.holders.length === 1 && round.lockPid !== round.holders[0]) mismatched++;
			if (round.errors.length > 0) errors++;
		}
		if (doubles + none + mismatched + errors > 0) failed = true;
		console.log(
			`${raceCase.padEnd(16)} ${String(ROUNDS).padStart(6)}  ${String(doubles).padStart(14)}  ${String(none).padStart(9)}  ${String(mismatched).padStart(17)}  ${String(errors).padStart(6)}`,
		);
	}
} finally {
	await racers.stop();
	rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
