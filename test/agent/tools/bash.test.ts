import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "@mariozechner/pi-agent-core";
import { describe, expect, it, vi } from "vitest";
import { type BashDetails, createBashTool } from "../../../source/agent/tools/bash.js";
import { textOf, useTempDir } from "./tool-helpers.js";

/** True while `pid` is a live process; a zombie awaiting a reaper counts as gone. */
function isAlive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
	} catch {
		return false;
	}
}

function exited(details: BashDetails): Extract<BashDetails, { state: "exited" }> {
	if (details.state !== "exited") throw new Error(`expected an exited result, got ${details.state}`);
	return details;
}

/** Runs a command, recording every streamed update. */
function run(cwd: string, command: string, options: { timeout?: number; signal?: AbortSignal } = {}) {
	const updates: AgentToolResult<BashDetails>[] = [];
	const params = options.timeout === undefined ? { command } : { command, timeout: options.timeout };
	const result = createBashTool(cwd).execute("call", params, options.signal, (update) => updates.push(update));
	return { result, updates };
}

describe("bash tool", () => {
	const temp = useTempDir();

	it("returns the output and exit code 0", async () => {
		const result = await run(temp.dir, "echo hello; echo world").result;
		expect(textOf(result)).toBe("hello\nworld");
		expect(result.details).toEqual({ state: "exited", exitCode: 0, truncated: false, totalLines: 2, totalBytes: 12 });
	});

	it("reports a non-zero exit code without throwing, keeping the output", async () => {
		const result = await run(temp.dir, "echo partial; echo oops >&2; exit 3").result;
		expect(textOf(result)).toBe("partial\noops\n\nCommand exited with code 3");
		expect(exited(result.details).exitCode).toBe(3);
	});

	it("says when there was no output", async () => {
		const result = await run(temp.dir, "true").result;
		expect(textOf(result)).toBe("(no output)");
		const failed = await run(temp.dir, "false").result;
		expect(textOf(failed)).toBe("(no output)\n\nCommand exited with code 1");
	});

	it("reports a command killed by a signal", async () => {
		const result = await run(temp.dir, "echo before; kill -9 $$").result;
		expect(textOf(result)).toBe("before\n\nCommand killed by signal 9");
		expect(exited(result.details).signal).toBe(9);
	});

	it("keeps error messages' line numbers and exit status", async () => {
		const result = await run(temp.dir, "echo a\nno-such-command-xyz").result;
		expect(textOf(result)).toBe(
			"a\n/bin/bash: line 2: no-such-command-xyz: command not found\n\nCommand exited with code 127",
		);
		expect(exited(result.details).exitCode).toBe(127);
	});

	it("reports a syntax error in the command", async () => {
		const result = await run(temp.dir, "if then").result;
		expect(textOf(result)).toMatch(/syntax error near unexpected token `then'[\s\S]*\n\nCommand exited with code 2$/);
	});

	it("runs in the session cwd, in a terminal, with pagers disabled", async () => {
		const result = await run(temp.dir, 'pwd; [ -t 1 ] && echo tty; echo "$TERM $PAGER $GIT_PAGER"; tput cols').result;
		expect(textOf(result)).toBe(`${temp.dir}\ntty\ndumb cat cat\n200`);
	});

	it("does not leak the wrapper's variable into the command's environment", async () => {
		const result = await run(temp.dir, 'env | grep -c XCSH_BASH_COMMAND; echo "$0"').result;
		expect(textOf(result)).toBe("0\n/bin/bash");
	});

	it("strips colours and normalises line endings", async () => {
		const result = await run(temp.dir, "printf '\\033[1;32mgreen\\033[0m\\r\\nplain\\n'; printf '10%%\\r100%%\\n'")
			.result;
		expect(textOf(result)).toBe("green\nplain\n100%");
	});

	it("streams output before the command finishes", async () => {
		const { result, updates } = run(temp.dir, "echo a; sleep 0.3; echo b");
		const final = await result;
		const early = updates.find((u) => textOf(u).includes("a") && !textOf(u).includes("b"));
		expect(early).toBeDefined();
		expect(early?.details.state).toBe("running");
		expect(textOf(final)).toBe("a\nb");
	});

	it("loses none of a large, fast output", async () => {
		for (let attempt = 0; attempt < 3; attempt++) {
			const result = await run(temp.dir, "seq 1 1900").result;
			const text = textOf(result);
			expect(text.split("\n")).toHaveLength(1900);
			expect(text.endsWith("\n1899\n1900")).toBe(true);
		}
	});

	it("keeps the last 2000 lines of a huge output and saves all of it to a file", async () => {
		const result = await run(temp.dir, "seq 1 9000").result;
		const details = result.details;
		const path = details.fullOutputPath ?? "";
		expect(details).toMatchObject({ state: "exited", exitCode: 0, truncated: true, totalLines: 9000 });
		expect(textOf(result)).toBe(
			`${Array.from({ length: 2000 }, (_, i) => i + 7001).join("\n")}\n\n[Output truncated: showing the last 2000 of 9000 lines. Full output: ${path}]`,
		);
		expect(existsSync(path)).toBe(true);
		const full = readFileSync(path, "utf8");
		expect(full.split("\n").slice(0, 3)).toEqual(["1", "2", "3"]);
		expect(full).toBe(`${Array.from({ length: 9000 }, (_, i) => i + 1).join("\n")}\n`);
		rmSync(path);
	});

	it("names the byte limit when long lines hit it first", async () => {
		// 1500 lines of 101 bytes: 506 fit in 51,200 bytes.
		const result = await run(temp.dir, "for i in $(seq 1 1500); do printf '%0100d\\n' $i; done").result;
		expect(textOf(result)).toMatch(
			/\n\n\[Output truncated: showing the last 506 of 1500 lines \(50\.0 KB limit\)\. Full output: \S+\]$/,
		);
		const path = result.details.fullOutputPath ?? "";
		expect(readFileSync(path, "utf8")).toHaveLength(1500 * 101);
		rmSync(path);
	});

	it("kills the command and its process group on timeout", async () => {
		const { result, updates } = run(temp.dir, "echo SHELL=$$; sleep 10 & echo CHILD=$!; wait", { timeout: 1 });
		await expect(result).rejects.toThrow(/^SHELL=\d+\nCHILD=\d+\n\nCommand timed out after 1 second$/);
		const seen = updates.map(textOf).join("\n");
		const pids = [/SHELL=(\d+)/, /CHILD=(\d+)/].map((re) => Number(re.exec(seen)?.[1]));
		expect(pids.every((pid) => pid > 0)).toBe(true);
		await vi.waitFor(() => expect(pids.filter(isAlive)).toEqual([]), { timeout: 3000, interval: 20 });
	});

	it("SIGKILLs a command that ignores the hang-up", async () => {
		const { result, updates } = run(temp.dir, "trap '' HUP; sleep 10 & echo CHILD=$!; wait", { timeout: 0.5 });
		await expect(result).rejects.toThrow("Command timed out after 0.5 seconds");
		const child = Number(/CHILD=(\d+)/.exec(updates.map(textOf).join("\n"))?.[1]);
		expect(child).toBeGreaterThan(0);
		await vi.waitFor(() => expect(isAlive(child)).toBe(false), { timeout: 3000, interval: 20 });
	});

	it("kills the command when aborted mid-run", async () => {
		const controller = new AbortController();
		const updates: string[] = [];
		const result = createBashTool(temp.dir).execute(
			"call",
			{ command: "echo started; sleep 10" },
			controller.signal,
			(u) => {
				updates.push(textOf(u));
				controller.abort();
			},
		);
		await expect(result).rejects.toThrow(/^started\n\nCommand aborted$/);
		expect(updates[0]).toBe("started\n");
	});

	it("does not start a command that is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const marker = join(temp.dir, "ran");
		const { result } = run(temp.dir, `touch ${marker}`, { signal: controller.signal });
		await expect(result).rejects.toThrow(/^Command aborted$/);
		expect(existsSync(marker)).toBe(false);
	});

	it("rejects a timeout that is not a positive number", async () => {
		await expect(run(temp.dir, "true", { timeout: 0 }).result).rejects.toThrow(
			"timeout must be a positive number of seconds",
		);
	});

	it("reports a working directory that does not exist", async () => {
		const missing = join(temp.dir, "gone");
		await expect(run(missing, "true").result).rejects.toThrow(`Working directory does not exist: ${missing}`);
	});
});
