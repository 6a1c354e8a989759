/**
 * Fuzz cases through every exporter: `EXPORT_FUZZ=2000 node --import tsx bench/export-fuzz.ts`
 *
 * Generates EXPORT_FUZZ (default 2,000) session files of odd but loadable shape (the generator of
 * test/export/exporters-fuzz.test.ts, same seed, more cases) and runs each through every exporter:
 * HTML (plain; --collapse-tools --no-redact), Markdown (plain; --focused --collapse-tools), JSON
 * (plain; --focused), the /dump text and the redaction pass. Prints cases × exporters, the failures
 * per exporter and the distinct error messages. Env: EXPORT_FUZZ_SEED. Exit 1 on any failure.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { EXPORT_FUZZ_SEED, EXPORTERS, exportableSession, runEveryExporter } from "../test/helpers/export-fuzz.js";

function intEnv(name: string, fallback: number): number {
	const value = Number(process.env[name]);
	return Number.isInteger(value) && value > 0 ? value : fallback;
}

const CASES = intEnv("EXPORT_FUZZ", 2000);
const SEED = intEnv("EXPORT_FUZZ_SEED", EXPORT_FUZZ_SEED);
const root = mkdtempSync(join(tmpdir(), "xcsh-export-fuzz-"));
process.env.XCSH_AGENT_DIR = join(root, "agent");
const say = (line: string) => process.stdout.write(`${line}\n`);

say(`export fuzz: ${CASES} cases × ${EXPORTERS.length} exporters, seed ${SEED}, in ${root}`);
const started = performance.now();
const byExporter = new Map<string, number>(EXPORTERS.map((e) => [e.name, 0]));
const messages = new Map<string, number>();
let failedCases = 0;
const cases = fc.sample(exportableSession(), { seed: SEED, numRuns: CASES });
for (const [i, session] of cases.entries()) {
	const dir = join(root, `case-${i}`);
	const failures = await runEveryExporter(session.text, dir);
	rmSync(dir, { recursive: true, force: true });
	if (failures.length > 0) failedCases++;
	for (const { exporter, error } of failures) {
		byExporter.set(exporter, (byExporter.get(exporter) ?? 0) + 1);
		const key = `${exporter}: ${error}`;
		messages.set(key, (messages.get(key) ?? 0) + 1);
	}
	if ((i + 1) % 500 === 0) say(`  cases: ${i + 1}/${CASES}`);
}
const seconds = (performance.now() - started) / 1000;
const total = [...byExporter.values()].reduce((a, b) => a + b, 0);

say("");
say(
	`runs:          ${CASES * EXPORTERS.length} (${CASES} cases × ${EXPORTERS.length} exporters; ${seconds.toFixed(1)} s)`,
);
say(`failed cases:  ${failedCases}`);
say(`failures:      ${total}`);
for (const [exporter, count] of byExporter) say(`  ${exporter.padEnd(36)} ${count}`);
for (const [message, count] of [...messages].sort((a, b) => b[1] - a[1]).slice(0, 15)) say(`  ${count} × ${message}`);
rmSync(root, { recursive: true, force: true });
process.exitCode = total === 0 ? 0 : 1;
