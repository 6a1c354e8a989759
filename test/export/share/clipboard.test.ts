import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { copyToClipboard, osc52Sequence } from "../../../source/export/clipboard.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import { waitForFile } from "./helpers.js";

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, "clipboard-child.ts");
const ROOT = join(import.meta.dirname, "../../..");
const TEXT = "xcsh dump ✓ — línea 1\nline 2\twith tab";
const BASE64 = Buffer.from(TEXT, "utf8").toString("base64");

const onPath = (program: string) =>
	(process.env.PATH ?? "").split(":").some((dir) => dir && existsSync(join(dir, program)));
const hasX = onPath("xvfb-run") && onPath("xsel");

/** process.env without anything that would steer the clipboard (SSH, tmux, an existing display). */
function cleanEnv(agentDir: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: agentDir };
	for (const key of ["SSH_TTY", "SSH_CONNECTION", "TMUX", "DISPLAY", "WAYLAND_DISPLAY"]) delete env[key];
	return env;
}

/** Polls `read` (the thing waited on) until it yields a value, or throws after `timeoutMs`. */
async function waitForValue<T>(read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error("Timed out waiting for tmux's buffer");
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

async function runChild(command: string, args: string[], env: NodeJS.ProcessEnv) {
	const { stdout } = await run(command, args, { env, timeout: 30_000 });
	return JSON.parse(stdout.trim().split("\n").at(-1)!) as { method: string; written: string; readBack?: string };
}

describe("copyToClipboard", () => {
	const temp = useTempAgentDir();

	it("writes OSC 52 to the terminal over SSH without touching the system clipboard", async () => {
		for (const env of [{ SSH_TTY: "/dev/pts/3" }, { SSH_CONNECTION: "10.0.0.1 5000 10.0.0.2 22" }]) {
			const writes: string[] = [];
			const method = await copyToClipboard(TEXT, { env, write: (data) => writes.push(data) });
			expect(method).toBe("osc52");
			expect(writes).toEqual([`\x1b]52;c;${BASE64}\x07`]);
		}
	});

	it("sends plain OSC 52 inside tmux too (its passthrough is off by default)", async () => {
		const writes: string[] = [];
		// No tmux to ask here: the sequence is sent and called sent.
		const env = { SSH_TTY: "/dev/pts/3", TMUX: join(temp.root, "no-such-tmux-socket,123,0"), PATH: "" };
		expect(await copyToClipboard(TEXT, { env, write: (data) => writes.push(data) })).toBe("osc52");
		expect(writes).toEqual([`\x1b]52;c;${BASE64}\x07`]);
		expect(osc52Sequence("")).toBe("\x1b]52;c;\x07");
	});

	describe.skipIf(!onPath("tmux"))("inside a real tmux (needs tmux)", () => {
		const servers: string[] = [];
		afterEach(async () => {
			for (const socket of servers.splice(0)) await run("tmux", ["-L", socket, "kill-server"]).catch(() => undefined);
		});

		/** Runs the child in a detached tmux pane configured by `config`; returns its report and the socket. */
		async function inTmux(config: string) {
			const socket = `xcsh-clip-${process.pid}-${servers.length}-${Date.now()}`;
			servers.push(socket);
			const conf = join(temp.root, `${socket}.conf`);
			writeFileSync(conf, `set -g remain-on-exit on\n${config}\n`);
			const result = join(temp.root, `${socket}.json`);
			const command = `SSH_TTY=/dev/pts/9 XCSH_AGENT_DIR='${temp.agentDir}' '${process.execPath}' --import tsx '${CHILD}' '${TEXT}' '${result}'`;
			await run("tmux", ["-L", socket, "-f", conf, "new-session", "-d", "-x", "80", "-y", "24", "-c", ROOT, command]);
			await waitForFile(result, 30_000);
			return { socket, report: JSON.parse(readFileSync(result, "utf8")) as { method: string; written: string } };
		}

		it("with set-clipboard on, tmux takes the copy into its buffer (and on to the terminal)", async () => {
			const { socket, report } = await inTmux("set -g set-clipboard on");
			// tmux parses the pane's output on its own schedule: wait for the buffer to hold the text.
			const buffer = await waitForValue(async () => {
				const shown = await run("tmux", ["-L", socket, "show-buffer"]).catch(() => undefined);
				return shown?.stdout === TEXT ? shown.stdout : undefined;
			});
			expect(buffer).toBe(TEXT);
			expect(report).toEqual({ method: "osc52", written: `\x1b]52;c;${BASE64}\x07` });
		});

		it("with tmux's default set-clipboard (external) it says the copy was dropped", async () => {
			const { report } = await inTmux("");
			expect(report).toEqual({ method: "osc52-dropped-by-tmux", written: `\x1b]52;c;${BASE64}\x07` });
		});
	});

	it("falls back to OSC 52 when there is no display for the system clipboard", async () => {
		const result = await runChild(process.execPath, ["--import", "tsx", CHILD, TEXT], cleanEnv(temp.agentDir));
		expect(result).toEqual({ method: "osc52", written: `\x1b]52;c;${BASE64}\x07` });
		// The real reason goes to the debug log, never to the terminal.
		expect(readFileSync(join(temp.agentDir, "xcsh.log"), "utf8")).toMatch(/clipboard: .*falling back to OSC 52/);
	});

	it.skipIf(!hasX)("copies to the real X clipboard under xvfb-run (needs xvfb-run and xsel)", async () => {
		const result = await runChild(
			"xvfb-run",
			["-a", process.execPath, "--import", "tsx", CHILD, TEXT],
			cleanEnv(temp.agentDir),
		);
		expect(result).toEqual({ method: "clipboard", written: "", readBack: TEXT });
	});
});
