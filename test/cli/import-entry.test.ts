import { describe, expect, it } from "vitest";
import { plainImport } from "../../source/cli/import-entry.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("a plain xcsh import starts without the general CLI", () => {
	it("reads paths and import's own flags, in both spellings", () => {
		expect(plainImport(["import", "a", "--from", "codex", "b", "--dry-run", "--json", "--cwd=/w"])).toEqual({
			args: ["a", "b"],
			flags: { dryRun: true, json: true, scan: false, from: "codex", cwd: "/w" },
		});
		expect(plainImport(["import", "--scan"])).toEqual({
			args: [],
			flags: { dryRun: false, json: false, scan: true },
		});
	});

	it("leaves everything else to the general CLI", () => {
		for (const argv of [
			["sessions"],
			["--json", "import", "a"],
			["import", "--help"],
			["import", "a", "--frm", "x"],
			["import", "a", "--json", "--json"],
			["import", "a", "--from"],
			["import", "a", "--from", "--json"],
			["import", "a", "--cwd="],
			["import", "a", "--json=false"],
			["import", "-", "a"],
			["import", "--", "-a"],
			["import", "a", "--dryRun"],
		])
			expect(plainImport(argv), argv.join(" ")).toBeUndefined();
	});

	const temp = useTempAgentDir();
	it("an unknown or empty flag still gets the general CLI's one line", () => {
		const unknown = runCli(["import", "x", "--frm", "codex"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(unknown.status).toBe(2);
		expect(unknown.stderr).toBe("Unknown flag: --frm. Run xcsh --help for usage.\n");
		const empty = runCli(["import", "x", "--cwd="], { agentDir: temp.agentDir, cwd: temp.root });
		expect(empty.status).toBe(2);
		expect(empty.stderr).toMatch(/^--cwd needs a directory\.\nUsage: xcsh import /);
	});
});
