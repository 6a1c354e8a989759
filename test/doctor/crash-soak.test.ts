import { describe, expect, it } from "vitest";
import { runCrashSoak } from "../helpers/crash-soak.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("crash soak (fast variant of bench/soak.ts)", () => {
	const tmp = useTempAgentDir();

	it("10 writers SIGKILLed at random moments lose no flushed entry, and --fix cleans up after them", async () => {
		const summary = await runCrashSoak({ trials: 10, seed: 6, root: tmp.root, maxBatches: 6, concurrency: 2 });
		expect(summary.failures).toEqual([]);
		expect(summary).toMatchObject({ trials: 10, entriesLost: 0 });
		expect(summary.flushedEntries).toBeGreaterThanOrEqual(10 * 50);
		// Every killed writer leaves its lock behind, and the doctor sees it as stale.
		expect(summary.staleLocks).toBe(10);
	}, 120_000);
});
