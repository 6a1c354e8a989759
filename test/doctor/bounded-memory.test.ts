import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { runCliMeasured, writeBigSession } from "./big-session.js";
import { projectDir } from "./craft.js";

const MB = 1024 * 1024;
/** The file is several times this: a doctor that held it whole could not stay under it. */
const RSS_BOUND = 200 * MB;

describe("xcsh doctor on a session far bigger than its memory bound", () => {
	const tmp = useTempAgentDir();

	it("diagnoses and repairs a ~300 MB session with a peak RSS under 200 MB", () => {
		const big = writeBigSession(join(projectDir(tmp.agentDir), "big.jsonl"), 300 * MB);
		expect(big.size).toBeGreaterThan(RSS_BOUND * 1.4);
		const opts = { agentDir: tmp.agentDir, cwd: tmp.root };

		const checked = runCliMeasured(["doctor", big.path, "--json"], opts);
		expect(checked.stderr).toBe("");
		expect(checked.status).toBe(1);
		const report = JSON.parse(checked.stdout) as { files: { findings: { kind: string; line?: number }[] }[] };
		expect(report.files[0]!.findings).toEqual([
			{ severity: "error", kind: "unparseable-line", line: big.badLine, message: expect.any(String) },
			// Custom entries: nothing --slim could move.
			{ severity: "info", kind: "large-session", bytes: big.size, threshold: 64 * MB, slimmableBytes: 0 },
		]);
		console.log(`doctor: ${(big.size / MB).toFixed(0)} MB file, peak RSS ${(checked.maxRssBytes / MB).toFixed(1)} MB`);
		expect(checked.maxRssBytes).toBeLessThan(RSS_BOUND);

		const fixed = runCliMeasured(["doctor", big.path, "--fix"], opts);
		expect(fixed.stderr).toBe("");
		expect(fixed.stdout).toContain(
			`  repaired: moved 1 line to ${big.path}.quarantine.jsonl; the original is in ${big.path}.bak\n  now: ok\n`,
		);
		expect(fixed.status).toBe(0);
		console.log(`doctor --fix: peak RSS ${(fixed.maxRssBytes / MB).toFixed(1)} MB`);
		expect(fixed.maxRssBytes).toBeLessThan(RSS_BOUND);
		expect(statSync(`${big.path}.bak`).size).toBe(big.size);
		expect(statSync(big.path).size).toBe(big.size - "{this line is not JSON\n".length);
		expect(readFileSync(`${big.path}.quarantine.jsonl`, "utf8")).toContain('"text":"{this line is not JSON"');
	}, 120_000);

	it("slims a ~300 MB session of 200 KB tool results with a peak RSS under 200 MB", () => {
		const big = writeBigSession(join(projectDir(tmp.agentDir), "big.jsonl"), 300 * MB, 200_000, "toolResult");
		const opts = { agentDir: tmp.agentDir, cwd: tmp.root };
		const slimmed = runCliMeasured(["doctor", "--slim", big.path], opts);
		expect(slimmed.stderr).toBe("");
		const after = statSync(big.path).size;
		expect(after).toBeLessThan(big.size / 100);
		expect(slimmed.stdout).toBe(
			`Slimmed ${big.path}: ${(big.size / MB).toFixed(1)} MB → ${(after / 1024).toFixed(1)} KB (${big.entries.toLocaleString("en-US")} tool results moved to the blob store; backup: ${big.path}.bak)\n`,
		);
		expect(slimmed.status).toBe(0);
		console.log(
			`doctor --slim: ${(big.size / MB).toFixed(0)} MB file, peak RSS ${(slimmed.maxRssBytes / MB).toFixed(1)} MB`,
		);
		expect(slimmed.maxRssBytes).toBeLessThan(RSS_BOUND);
		expect(statSync(`${big.path}.bak`).size).toBe(big.size);
		// Every blob is there: the only finding left is the line that was never JSON.
		const checked = runCliMeasured(["doctor", big.path, "--json"], opts);
		const report = JSON.parse(checked.stdout) as { files: { findings: { kind: string; line?: number }[] }[] };
		expect(report.files[0]!.findings.map((f) => [f.kind, f.line])).toEqual([["unparseable-line", big.badLine]]);
	}, 120_000);
});
