import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUTO_OFF, AUTO_ON, IMPORT_USAGE } from "../../source/cli/import-command.js";
import { plainImport } from "../../source/cli/import-entry.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe("xcsh import --scan --auto on|off", () => {
	const temp = useTempAgentDir();
	const run = (args: string[]) =>
		runCli(args, {
			agentDir: temp.agentDir,
			cwd: temp.root,
			env: { HOME: join(temp.root, "home"), XDG_DATA_HOME: join(temp.root, "home", "data") },
		});
	const settings = () => join(temp.agentDir, "settings.json");
	// Private as xcsh makes them: a readable agent dir would get a notice of its own.
	const put = (text: string) => {
		mkdirSync(temp.agentDir, { recursive: true, mode: 0o700 });
		writeFileSync(settings(), text, { mode: 0o600 });
	};

	it("--scan says auto import is off and how to turn it on", () => {
		expect(AUTO_OFF).toBe(
			"Auto import is off: xcsh import --scan --auto on makes xcsh import what is new in these places in the background while it runs.",
		);
		const scan = run(["import", "--scan"]);
		expect(scan.status).toBe(0);
		expect(scan.stdout).toBe(`No sessions of other agents found in the usual places.\n${AUTO_OFF}\n`);
		expect(scan.stderr).toBe("");
	});

	it("--auto on sets import.auto in settings.json (keeping the rest) and --scan then says it is on", () => {
		expect(AUTO_ON).toBe(
			"Auto import is on: while xcsh runs, it imports what is new in these places in the background (xcsh import --scan --auto off turns it off).",
		);
		put('{"defaultModel": "anthropic/claude-sonnet-4-6"}');
		const on = run(["import", "--scan", "--auto", "on"]);
		expect(on.status).toBe(0);
		expect(on.stdout).toBe(`No sessions of other agents found in the usual places.\n${AUTO_ON}\n`);
		expect(JSON.parse(readFileSync(settings(), "utf8"))).toEqual({
			defaultModel: "anthropic/claude-sonnet-4-6",
			import: { auto: true },
		});
		expect(run(["import", "--scan"]).stdout).toContain(`${AUTO_ON}\n`);
		const json = run(["import", "--scan", "--json"]);
		expect(JSON.parse(json.stdout)).toEqual({ homes: [], results: [], auto: true });
		const off = run(["import", "--scan", "--auto=off"]);
		expect(off.stdout).toBe(`No sessions of other agents found in the usual places.\n${AUTO_OFF}\n`);
		expect(JSON.parse(readFileSync(settings(), "utf8")).import).toEqual({ auto: false });
		expect(JSON.parse(run(["import", "--scan", "--json"]).stdout).auto).toBe(false);
	});

	it("goes through the general CLI too (flags before the command)", () => {
		const on = run(["--json", "import", "--scan", "--auto", "on"]);
		expect(on.status).toBe(0);
		expect(JSON.parse(on.stdout)).toEqual({ homes: [], results: [], auto: true });
	});

	it("refuses a bad value, --auto without --scan, and a settings.json it cannot read, changing nothing", () => {
		const bad = run(["import", "--scan", "--auto", "yes"]);
		expect(bad.status).toBe(2);
		expect(bad.stderr).toBe("Unknown --auto yes: use on or off.\n");
		const alone = run(["import", "x.jsonl", "--auto", "on"]);
		expect(alone.status).toBe(2);
		expect(alone.stderr).toBe(`--auto goes with --scan: xcsh import --scan --auto on|off.\n${IMPORT_USAGE}\n`);
		put("{broken");
		const broken = run(["import", "--scan", "--auto", "on"]);
		expect(broken.status).toBe(1);
		expect(broken.stderr).toMatch(/^Could not turn auto import on: settings\.json is not valid JSON: .+\.\n$/);
		expect(broken.stdout).toBe("");
		expect(readFileSync(settings(), "utf8")).toBe("{broken");
		const scan = run(["import", "--scan"]);
		expect(scan.stderr).toMatch(/^settings\.json is not valid JSON: .+; auto import is off\.\n$/);
		expect(scan.stdout).toContain(`${AUTO_OFF}\n`);
	});

	it("is read by the plain import path, and --help names it", () => {
		expect(plainImport(["import", "--scan", "--auto", "on"])).toEqual({
			args: [],
			flags: { dryRun: false, json: false, scan: true, auto: "on" },
		});
		const help = run(["--help"]).stdout;
		expect(help).toContain(
			"$ xcsh import --scan --auto on|off          Import what is new there in the background while xcsh runs (off by default)",
		);
		expect(help).toContain(
			"--auto on|off        import --scan: a running xcsh imports what is new there in the background",
		);
	});
});
