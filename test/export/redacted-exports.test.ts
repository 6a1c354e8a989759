import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { PtyTerminal } from "../helpers/pty-terminal.js";
import { runCli } from "../helpers/run-cli.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const TOKEN = "ghp_FAKETpnAMD2zhau2IfUknAkMIQJqgDmFwp7F";
const ENV_LINE = "STRIPE_SECRET=sk_live_FAKE4eC39HqLyjWDarjtT1zdp7dc";

describe("exports and shares never carry secrets", () => {
	const temp = useTempAgentDir();
	let term: PtyTerminal | undefined;
	// Waits for the CLI to be gone (it saves on the way out, and its checkpoint store may be being
	// made): removing the agent dir under it failed with ENOTEMPTY.
	afterEach(async () => {
		await term?.stop();
		term = undefined;
	});

	async function sessionWithSecrets(cwd: string): Promise<string> {
		const session = await SessionManager.create(cwd);
		session.appendMessage(userMessage(`clone with ${TOKEN} please`));
		session.appendMessage(assistantMessage("reading .env"));
		session.appendMessage(toolResultMessage(`${ENV_LINE}\nDEBUG=1`));
		await session.close();
		return session.getSessionFile()!;
	}

	it("xcsh --export redacts by default and says how many; --no-redact keeps them and says so", async () => {
		const file = await sessionWithSecrets(temp.root);
		const out = join(temp.root, "safe.html");
		const safe = runCli(["--export", file, out], { agentDir: temp.agentDir, cwd: temp.root });
		expect(safe.status).toBe(0);
		expect(safe.stdout).toMatch(
			/^Exported to: .+\n2 secrets redacted \((1 github-token, 1 stripe-key|1 stripe-key, 1 github-token)\)\n$/,
		);
		const html = readFileSync(out, "utf8");
		expect(html).not.toContain(TOKEN);
		expect(html).not.toContain("sk_live_FAKE4eC39HqLyjWDarjtT1zdp7dc");
		expect(html).toContain("[REDACTED:github-token]");

		const raw = join(temp.root, "raw.html");
		const kept = runCli(["--export", file, raw, "--no-redact"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(kept.stdout).toContain("Not redacted (--no-redact)");
		expect(readFileSync(raw, "utf8")).toContain(TOKEN);
	});

	it("/share uploads a redacted page: the fake gh records what it was given", async () => {
		const project = join(temp.root, "project");
		const bin = join(temp.root, "bin");
		mkdirSync(project);
		mkdirSync(bin);
		const uploaded = join(temp.root, "uploaded.html");
		writeFileSync(
			join(bin, "gh"),
			`#!/bin/sh\nif [ "$1" = "auth" ]; then echo "Logged in to github.com account someone (keyring)"; exit 0; fi\nfor last; do :; done\ncp "$last" "${uploaded}"\necho "https://gist.github.com/someone/abcdef0123456789"\n`,
		);
		chmodSync(join(bin, "gh"), 0o755);
		const file = await sessionWithSecrets(project);
		const t = new PtyTerminal({
			args: ["--resume", file],
			cwd: project,
			agentDir: temp.agentDir,
			cols: 110,
			env: { PATH: `${bin}:${process.env.PATH}`, BROWSER: "true" },
		});
		term = t;
		await t.waitFor("Ask anything");
		await t.type("/share");
		t.write("\r");
		const confirm = (await t.waitFor("Enter/y share")).replace(/\n/g, "");
		expect(confirm).toContain("Share the active branch (3 entries) to a secret gist on github.com/someone? 2 secrets");
		t.write("v");
		// Each entry holding a secret by role, short id and a redacted snippet.
		const entryLine = /(user|assistant|tool result) [0-9a-f]{8}: "/;
		const details = (await t.waitFor(entryLine)).split("\n").filter((line) => entryLine.test(line));
		expect(details.join("\n")).not.toContain(TOKEN);
		expect(details.join("\n")).toContain("ghp_…");
		t.write("y");
		const screen = (await t.waitFor((s) => s.replace(/\n/g, "").includes("Gist:"))).replace(/\n/g, "");
		expect(screen).toContain("2 secrets redacted");
		expect(screen).toContain("Shared the active branch (3 entries)");
		const html = readFileSync(uploaded, "utf8");
		expect(html).not.toContain(TOKEN);
		expect(html).not.toContain("sk_live_FAKE4eC39HqLyjWDarjtT1zdp7dc");
		expect(html).toContain("[REDACTED:");
		const registry = JSON.parse(readFileSync(join(temp.agentDir, "shares.json"), "utf8")) as {
			shares: { gistId?: string; scope: string }[];
		};
		expect(registry.shares).toMatchObject([{ gistId: "abcdef0123456789", scope: "the active branch" }]);
	});
});
