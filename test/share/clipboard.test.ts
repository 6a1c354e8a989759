import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { copyToClipboard, osc52Sequence } from "../../source/export/clipboard.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, "clipboard-child.ts");
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

	it("wraps OSC 52 in tmux's DCS passthrough with every ESC doubled", async () => {
		const writes: string[] = [];
		const env = { SSH_TTY: "/dev/pts/3", TMUX: "/tmp/tmux-1000/default,123,0" };
		expect(await copyToClipboard(TEXT, { env, write: (data) => writes.push(data) })).toBe("osc52");
		expect(writes).toEqual([`\x1bPtmux;\x1b\x1b]52;c;${BASE64}\x07\x1b\\`]);
		expect(osc52Sequence("", {})).toBe("\x1b]52;c;\x07");
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
