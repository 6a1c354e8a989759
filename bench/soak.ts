/**
 * Session soak: `SOAK_TRIALS=100 SOAK_FUZZ=10000 node --import tsx bench/soak.ts`
 *
 * 1. Crash soak: SOAK_TRIALS (default 100) append children SIGKILLed at random moments (seeded); each
 *    file must open with every flushed entry, take one more append and come out of --fix clean.
 * 2. Fuzz: SOAK_FUZZ (default 10,000) malformed session files through the doctor, the loader, the
 *    listing, open() and --fix (the property of test/doctor/fuzz.test.ts, same seed, more cases).
 *
 * Works under os.tmpdir()/xcsh-soak-* (its own XCSH_AGENT_DIR), removed unless something failed.
 * Env: SOAK_SEED, SOAK_CONCURRENCY (default 2), SOAK_JITTER_MS (default 20). Exit 1 on any failure.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { runCrashSoak } from "../test/helpers/crash-soak.js";
import { checkMalformedFile } from "../test/helpers/fuzz-check.js";
import { FUZZ_SEED, malformedSessionFile } from "../test/helpers/session-fuzz.js";

function intEnv(name: string, fallback: number): number {
	const value = Number(process.env[name]);
	return Number.isInteger(value) && value >= 0 ? value : fallback;
}

const TRIALS = intEnv("SOAK_TRIALS", 100);
const FUZZ = intEnv("SOAK_FUZZ", 10_000);
const SEED = intEnv("SOAK_SEED", FUZZ_SEED);
const CONCURRENCY = Math.max(1, intEnv("SOAK_CONCURRENCY", 2));
const JITTER_MS = intEnv("SOAK_JITTER_MS", 20);

const root = mkdtempSync(join(tmpdir(), "xcsh-soak-"));
process.env.XCSH_AGENT_DIR = join(root, "agent");
const say = (line: string) => process.stdout.write(`${line}\n`);

say(`soak: ${TRIALS} crash trials, ${FUZZ} fuzzed files, seed ${SEED}, in ${root}`);
const crashStarted = performance.now();
let done = 0;
const crash = await runCrashSoak({
	trials: TRIALS,
	seed: SEED,
	root: join(root, "crash"),
	jitterMs: JITTER_MS,
	concurrency: CONCURRENCY,
	onTrial: () => {
		done++;
		if (done % 10 === 0 || done === TRIALS) say(`  crash trials: ${done}/${TRIALS}`);
	},
});
const crashSeconds = (performance.now() - crashStarted) / 1000;

const fuzzRoot = join(root, "fuzz");
mkdirSync(fuzzRoot, { recursive: true });
const fuzzStarted = performance.now();
let fuzzed = 0;
const fuzz = await fc.check(
	fc.asyncProperty(malformedSessionFile(), async (file) => {
		await checkMalformedFile(file.bytes, fuzzRoot);
		fuzzed++;
		if (fuzzed % 1000 === 0) say(`  fuzzed: ${fuzzed}/${FUZZ}`);
	}),
	{ seed: SEED, numRuns: FUZZ },
);
const fuzzSeconds = (performance.now() - fuzzStarted) / 1000;
const fuzzFailures = fuzz.failed ? [`fuzz: ${fc.defaultReportMessage(fuzz) ?? "property failed"}`] : [];

const failures = [...crash.failures, ...fuzzFailures];
say("");
say(
	`trials:        ${crash.trials} (${crash.flushedEntries} flushed entries, ${crash.tornTails} torn tails, ${crash.staleLocks} stale locks; ${crashSeconds.toFixed(1)} s)`,
);
say(`files fuzzed:  ${fuzz.numRuns} of ${FUZZ} (${fuzzSeconds.toFixed(1)} s)`);
say(`entries lost:  ${crash.entriesLost}`);
say(`failures:      ${failures.length}`);
for (const failure of failures.slice(0, 20)) say(`  ${failure.split("\n").slice(0, 6).join("\n    ")}`);
if (failures.length === 0 && crash.entriesLost === 0) rmSync(root, { recursive: true, force: true });
else say(`kept ${root} for inspection`);
process.exitCode = failures.length === 0 && crash.entriesLost === 0 ? 0 : 1;
