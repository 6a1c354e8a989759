import { describe, expect, it } from "vitest";
import { runSearchCommand, SEARCH_USAGE, type SearchFlags } from "../../source/cli/search-command.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { writeSession } from "./session-fixtures.js";

interface Captured {
	out: string;
	err: string;
	code: number;
}

async function run(query: string, flags: Partial<SearchFlags> = {}, cwd = "/work/alpha"): Promise<Captured> {
	const captured = { out: "", err: "", code: 0 };
	const io = {
		stdout: (text: string) => {
			captured.out += text;
		},
		stderr: (text: string) => {
			captured.err += text;
		},
		cwd,
	};
	captured.code = await runSearchCommand(query, { json: false, limit: 20, all: false, ...flags }, io);
	return captured;
}

describe("xcsh search", () => {
	useTempAgentDir();

	async function sessions(): Promise<void> {
		await writeSession("/work/alpha", [userMessage("tune the kafka consumer"), assistantMessage("Kafka lag is fine.")]);
		await writeSession("/work/beta", [userMessage("kafka topic naming"), assistantMessage("Use dots.")]);
	}

	it("prints a table of this project's matches", async () => {
		await sessions();
		const { out, err, code } = await run("kafka");
		expect(code).toBe(0);
		expect(err).toBe("");
		const lines = out.trimEnd().split("\n");
		expect(lines).toHaveLength(2);
		for (const line of lines) {
			expect(line).toMatch(/^just now\s+alpha\s+\S+\s+(user|assistant)\s+/);
			expect(line).toContain("[");
		}
	});

	it("searches every project with --all", async () => {
		await sessions();
		const { out } = await run("kafka", { all: true });
		expect(out).toContain("beta");
		expect(out.trimEnd().split("\n")).toHaveLength(3);
	});

	it("searches the project given by cwd", async () => {
		await sessions();
		const { out } = await run("kafka", { cwd: "/work/beta" });
		expect(out).toContain("beta");
		expect(out).not.toContain("alpha");
	});

	it("prints JSON hits", async () => {
		await sessions();
		const { out, code } = await run("consumer", { json: true });
		expect(code).toBe(0);
		const hits = JSON.parse(out) as SearchHit[];
		expect(hits).toHaveLength(1);
		expect(hits[0]).toMatchObject({ cwd: "/work/alpha", role: "user", snippet: "tune the kafka [consumer]" });
	});

	it("says when nothing matches", async () => {
		await sessions();
		const { out, code } = await run("zebra");
		expect(code).toBe(0);
		expect(out).toMatch(/^No matches for "zebra"/);
		expect((await run("zebra", { all: true })).out).toBe('No matches for "zebra".\n');
	});

	it("rejects an empty query and a bad limit with exit code 2", async () => {
		const empty = await run("   ");
		expect(empty.code).toBe(2);
		expect(empty.err).toBe(`${SEARCH_USAGE}\n`);
		expect(empty.out).toBe("");
		expect((await run("kafka", { limit: 0 })).code).toBe(2);
	});
});
