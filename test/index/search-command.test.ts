import { describe, expect, it } from "vitest";
import { RESUME_HINT, runSearchCommand, SEARCH_USAGE, type SearchFlags } from "../../source/cli/search-command.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { SessionManager } from "../../source/session/session-manager.js";
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
		expect(lines).toHaveLength(3);
		const [id] = (JSON.parse((await run("kafka", { json: true })).out) as SearchHit[]).map((hit) => hit.sessionId);
		for (const line of lines.slice(0, 2)) {
			// The session id prefix is what `xcsh --resume` takes.
			expect(line).toMatch(new RegExp(`^just now\\s+alpha\\s+${id!.slice(0, 8)}\\s+(user|assistant)\\s+`));
			expect(line).toContain("[");
		}
		expect(lines[2]).toBe(RESUME_HINT);
		expect(RESUME_HINT).toBe("Open a session with xcsh --resume <id>.");
	});

	it("shows a session's title next to its id", async () => {
		const manager = await SessionManager.create("/work/alpha");
		manager.appendMessage(userMessage("kafka retries"));
		manager.appendMessage(assistantMessage("Three."));
		manager.setSessionName("Kafka work");
		await manager.close();
		const { out } = await run("retries");
		const [hit] = JSON.parse((await run("retries", { json: true })).out) as SearchHit[];
		expect(out.split("\n")[0]).toMatch(
			new RegExp(`^just now\\s+alpha\\s+${hit!.sessionId.slice(0, 8)}\\s+Kafka work\\s+user\\s+`),
		);
	});

	it("searches every project with --all", async () => {
		await sessions();
		const { out } = await run("kafka", { all: true });
		expect(out).toContain("beta");
		expect(out.trimEnd().split("\n")).toHaveLength(4);
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
