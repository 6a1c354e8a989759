import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getDefaultSessionDir } from "../../source/session/session-paths.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");

describe("xcsh -p into a pipe that closes early (| head)", () => {
	const temp = useTempAgentDir();

	it("stops printing quietly, exits 0 and still saves the whole turn", async () => {
		const project = join(temp.root, "project");
		mkdirSync(project);
		const env: NodeJS.ProcessEnv = { ...process.env, XCSH_AGENT_DIR: temp.agentDir, NO_COLOR: "1" };
		delete env.XCSH_TERMINAL_ID;
		const child = spawn(process.execPath, [BIN, "-p", "hello"], {
			cwd: project,
			env,
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stderr = "";
		child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
		// Like `head -c 5`: read the first bytes, then close the reading end.
		const first = await new Promise<string>((resolvePromise) =>
			child.stdout.once("data", (chunk: Buffer) => {
				child.stdout.destroy();
				resolvePromise(chunk.toString("utf8"));
			}),
		);
		const status = await new Promise<number | null>((resolvePromise) => child.on("close", resolvePromise));
		expect(first.length).toBeGreaterThan(0);
		expect(stderr).not.toContain("EPIPE");
		expect(status).toBe(0);
		const dir = getDefaultSessionDir(project);
		const [file] = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
		const lines = readFileSync(join(dir, file!), "utf8").trim().split("\n");
		expect(lines.some((line) => line.includes('"role":"assistant"'))).toBe(true);
	});
});
