import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSessionFile } from "../../bench/generate-sessions.js";

const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");
/** The file is bigger than the bound, and the old exporter took 2.4 GB for it: holding it whole cannot pass. */
const SESSION_ENTRIES = 70_000; // ~225 MB with the generator's mix
const MAX_RSS_BYTES = 180 * 1024 * 1024;
const TOKEN = "ghp_FAKETpnAMD2zhau2IfUknAkMIQJqgDmFwp7F";
// Prints the process's peak RSS (kilobytes) on exit: measured in the real CLI, not in vitest.
const REPORT_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("max-rss-kb "+process.resourceUsage().maxRSS+"\\n"))`;

interface ExportRun {
	status: number | null;
	stdout: string;
	stderr: string;
	maxRssBytes: number;
}

function exportInChild(args: readonly string[], cwd: string, agentDir: string): Promise<ExportRun> {
	const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: agentDir, NO_COLOR: "1" };
	return new Promise((done, fail) => {
		const child = spawn(process.execPath, ["--import", REPORT_RSS, BIN, "--export", ...args], { cwd, env });
		let [stdout, stderr] = ["", ""];
		child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
		child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
		child.on("error", fail);
		child.on("close", (status) => {
			const kb = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1]);
			done({ status, stdout, stderr, maxRssBytes: kb * 1024 });
		});
	});
}

describe("--export of a session several times the memory bound", () => {
	let root = "";
	let agentDir = "";
	let session = "";
	let bytes = 0;

	beforeAll(() => {
		root = mkdtempSync(join(tmpdir(), "xcsh-big-export-"));
		agentDir = join(root, "agent");
		session = join(root, "big.jsonl");
		const generated = writeSessionFile(session, { entries: SESSION_ENTRIES, agentDir, seed: 15 });
		// The last prompt carries a secret: the streamed export still redacts every entry.
		const last = {
			type: "message",
			id: "lastprompt",
			parentId: generated.leafId,
			timestamp: new Date(generated.endMs + 1000).toISOString(),
			message: { role: "user", content: `LAST-PROMPT-TEXT push with ${TOKEN}`, timestamp: generated.endMs + 1000 },
		};
		appendFileSync(session, `${JSON.stringify(last)}\n`);
		bytes = statSync(session).size;
	}, 120_000);
	afterAll(() => {
		rmSync(root, { recursive: true, force: true });
	});

	it("writes the HTML page within the bound, redacted, with the last message", async () => {
		expect(bytes).toBeGreaterThan(MAX_RSS_BYTES);
		const run = await exportInChild([session, "big.html"], root, agentDir);
		expect(run.stderr).not.toMatch(/Error|heap/i);
		expect(run.status).toBe(0);
		expect(run.stdout).toMatch(/^Exported to: .*big\.html\n1 secret redacted \(1 github-token\)\n$/);
		expect(run.maxRssBytes).toBeGreaterThan(0);
		expect(run.maxRssBytes).toBeLessThanOrEqual(MAX_RSS_BYTES);
		const html = readFileSync(join(root, "big.html"));
		expect(html.includes("LAST-PROMPT-TEXT")).toBe(true);
		expect(html.includes(TOKEN)).toBe(false);
		expect(html.subarray(html.length - 20).toString()).toContain("</html>");
	}, 120_000);
});
