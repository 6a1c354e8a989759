import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockPathFor, readLock } from "../../source/session/session-lock.js";
import { deadPid, LockRacers, prepareCase, RACE_CASES, roundFile } from "../helpers/lock-race.js";

const ROUNDS = 5;

describe("four processes lock the same session at one instant: exactly one holder", () => {
	let racers: LockRacers;
	let dir: string;

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "xcsh-lock-race-"));
		racers = await LockRacers.start(4);
	});
	afterAll(async () => {
		await racers?.stop();
		rmSync(dir, { recursive: true, force: true });
	});

	for (const raceCase of RACE_CASES) {
		it(raceCase, async () => {
			const pid = deadPid();
			for (let n = 0; n < ROUNDS; n++) {
				const file = roundFile(dir, raceCase, n);
				prepareCase(file, raceCase, pid);
				const round = await racers.race(file, () => readLock(lockPathFor(file))?.pid);
				expect(round.errors, `round ${n}`).toEqual([]);
				expect(round.holders, `round ${n}`).toHaveLength(1);
				expect(round.lockPid, `round ${n}`).toBe(round.holders[0]);
			}
		});
	}
});
