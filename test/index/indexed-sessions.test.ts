import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { refreshIndexWithProgress } from "../../source/cli/index-progress.js";
import { getIndexDbPath } from "../../source/index/index-db.js";
import { describeChanges, progressReporter } from "../../source/index/indexed-sessions.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { writeSession } from "./session-fixtures.js";

describe("progressReporter", () => {
	it("stays quiet for small refreshes, throttles to 100 ms, and always reports the end", () => {
		let clock = 1000;
		const seen: string[] = [];
		const report = progressReporter(
			(text) => seen.push(text),
			() => clock,
		);
		report({ done: 1, total: 10, bytesDone: 1, bytesTotal: 10 });
		expect(seen).toEqual([]);
		report({ done: 1, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		clock += 50;
		report({ done: 2, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		clock += 60;
		report({ done: 1234, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		report({ done: 12_000, total: 12_000, bytesDone: 0, bytesTotal: 0 });
		expect(seen).toEqual(["1 of 12,000", "1,234 of 12,000", "12,000 of 12,000"]);
	});
});

describe("describeChanges", () => {
	it("names only what changed", () => {
		expect(describeChanges({ added: 0, updated: 0, removed: 0, unchanged: 9 })).toBeUndefined();
		expect(describeChanges({ added: 3, updated: 1, removed: 2, unchanged: 0 })).toBe("3 new, 1 updated, 2 removed");
		expect(describeChanges({ added: 0, updated: 1, removed: 0, unchanged: 0 })).toBe("1 updated");
	});
});

describe("refreshIndexWithProgress", () => {
	useTempAgentDir();

	it("shows a live counter on a terminal for a big first build, and nothing on a pipe", async () => {
		for (let i = 0; i < 52; i++)
			await writeSession(`/work/bulk${i % 3}`, [userMessage(`q${i}`), assistantMessage("a")]);
		const pipe: string[] = [];
		await refreshIndexWithProgress({ stderr: (t) => pipe.push(t), isTTY: false });
		expect(pipe).toEqual([]);
		rmSync(getIndexDbPath(), { force: true });
		const tty: string[] = [];
		await refreshIndexWithProgress({ stderr: (t) => tty.push(t), isTTY: true });
		expect(tty.at(-2)).toBe("\r\x1b[2KIndexing sessions… 52 of 52");
		expect(tty.at(-1)).toBe("\r\x1b[2K");
	});
});
