/** A generated session far bigger than the memory a test allows, and the CLI run that measures a command on it. */
import { spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { entryLine, headerLine } from "./craft.js";
import { messageLine, toolResult } from "./slim-craft.js";

const BIN = resolve(import.meta.dirname, "../../bin/xcsh.js");
const REPORT_RSS = resolve(import.meta.dirname, "report-rss.mjs");

/** What `writeBigSession` wrote. */
export interface BigSession {
	path: string;
	size: number;
	/** The line number of the one unparseable line. */
	badLine: number;
	entries: number;
}

/**
 * Writes a v3 session of about `targetBytes`: a chain of custom entries (or tool results, each text its
 * own) with `lineBytes` of text each and
 * one unparseable line in the middle, written a batch at a time so the test itself stays small.
 */
export function writeBigSession(
	path: string,
	targetBytes: number,
	lineBytes = 100_000,
	kind: "custom" | "toolResult" = "custom",
): BigSession {
	const filler = "x".repeat(lineBytes);
	const count = Math.ceil(targetBytes / lineBytes);
	const fd = openSync(path, "w");
	let size = 0;
	const write = (text: string) => {
		size += writeSync(fd, text);
	};
	write(`${headerLine()}\n`);
	const badAt = Math.floor(count / 2);
	let parent: string | null = null;
	let badLine = 0;
	let line = 1;
	for (let i = 0; i < count; i++) {
		if (i === badAt) {
			write("{this line is not JSON\n");
			badLine = ++line;
		}
		const id = `e${i}`;
		const text =
			kind === "custom"
				? entryLine(id, parent, { text: filler })
				: messageLine(id, parent, toolResult([{ type: "text", text: `${id}: ${filler}` }], i));
		write(`${text}\n`);
		line++;
		parent = id;
	}
	closeSync(fd);
	return { path, size, badLine, entries: count };
}

/** A CLI run with the child's own peak RSS. */
export interface MeasuredRun {
	status: number | null;
	stdout: string;
	stderr: string;
	maxRssBytes: number;
}

/** Runs the built CLI in a child process that reports its peak RSS on exit. */
export function runCliMeasured(args: readonly string[], options: { agentDir: string; cwd: string }): MeasuredRun {
	const rssOut = join(options.cwd, `rss-${process.pid}-${Date.now()}.txt`);
	const env: NodeJS.ProcessEnv = {
		...process.env,
		XCSH_AGENT_DIR: options.agentDir,
		NO_COLOR: "1",
		XCSH_RSS_OUT: rssOut,
	};
	delete env.XCSH_TERMINAL_ID;
	const result = spawnSync(process.execPath, ["--import", REPORT_RSS, BIN, ...args], {
		cwd: options.cwd,
		env,
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	return {
		status: result.status,
		stdout: result.stdout,
		stderr: result.stderr,
		maxRssBytes: Number(readFileSync(rssOut, "utf8")),
	};
}
