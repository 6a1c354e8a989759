import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OutputCollector } from "../../../source/agent/tools/output-collector.js";
import { throttle } from "../../../source/agent/tools/throttle.js";
import { type LogSink, setLogSink } from "../../../source/logger.js";
import { useTempDir } from "./tool-helpers.js";

describe("OutputCollector", () => {
	const temp = useTempDir();
	let restore: LogSink | undefined;
	afterEach(() => {
		if (restore) setLogSink(restore);
		restore = undefined;
	});

	it("keeps small output whole and touches no disk", () => {
		const output = new OutputCollector({ tempDir: temp.dir });
		output.push("a\n");
		output.push("b");
		expect(output.snapshot()).toEqual({ text: "a\nb", truncated: false, note: "", totalLines: 2, totalBytes: 3 });
	});

	it("spills everything to a file once over the limits and shows the tail", () => {
		const output = new OutputCollector({ tempDir: temp.dir, maxLines: 3, maxBytes: 1000 });
		for (let i = 1; i <= 10; i++) output.push(`${i}\n`);
		output.close();
		const snapshot = output.snapshot();
		expect(snapshot.text).toBe("8\n9\n10");
		expect(snapshot.note).toBe(
			`[Output truncated: showing the last 3 of 10 lines. Full output: ${snapshot.fullOutputPath}]`,
		);
		expect(snapshot.fullOutputPath?.startsWith(join(temp.dir, "xcsh-bash-"))).toBe(true);
		expect(readFileSync(snapshot.fullOutputPath ?? "", "utf8")).toBe("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
	});

	it("keeps memory bounded while the file keeps everything", () => {
		const output = new OutputCollector({ tempDir: temp.dir, maxLines: 5, maxBytes: 100 });
		const chunk = `${"x".repeat(49)}\n`;
		for (let i = 0; i < 1000; i++) output.push(chunk);
		output.close();
		const snapshot = output.snapshot();
		expect(snapshot.totalLines).toBe(1000);
		expect(snapshot.totalBytes).toBe(50_000);
		expect(snapshot.note).toContain("showing the last 2 of 1000 lines (100 B limit).");
		expect(readFileSync(snapshot.fullOutputPath ?? "", "utf8")).toBe(chunk.repeat(1000));
	});

	it("still truncates, without a path, when the full-output file cannot be created", () => {
		const warnings: string[] = [];
		restore = setLogSink((_level, message) => warnings.push(message));
		const missing = join(temp.dir, "no-such-dir");
		const output = new OutputCollector({ tempDir: missing, maxLines: 2 });
		output.push("a\nb\nc\n");
		const snapshot = output.snapshot();
		expect(snapshot.note).toBe("[Output truncated: showing the last 2 of 3 lines.]");
		expect(snapshot.fullOutputPath).toBeUndefined();
		expect(existsSync(missing)).toBe(false);
		expect(warnings[0]).toContain("bash: cannot write full output");
	});
});

describe("throttle", () => {
	it("runs at once, then at most once more per window", async () => {
		const runs: number[] = [];
		let done: () => void = () => undefined;
		const second = new Promise<void>((resolve) => {
			done = resolve;
		});
		const throttled = throttle(() => {
			runs.push(runs.length);
			if (runs.length === 2) done();
		}, 20);
		throttled.request();
		throttled.request();
		throttled.request();
		expect(runs).toEqual([0]);
		await second;
		expect(runs).toEqual([0, 1]);
	});

	it("drops a pending run on cancel", () => {
		let count = 0;
		const throttled = throttle(() => count++, 1000);
		throttled.request();
		throttled.request();
		throttled.cancel();
		expect(count).toBe(1);
	});
});
