import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionIndex } from "../../source/index/session-index.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { toolCallMessage, writeSession } from "./session-fixtures.js";

const NASTY_QUERIES = [
	'"',
	'""',
	"AND",
	"OR OR",
	"NOT",
	"NEAR(",
	"near(a b",
	"*",
	"**",
	"a*b*",
	"(",
	")",
	"-",
	"--x",
	"^",
	"+",
	":",
	"text:foo",
	"session_path:x",
	"{",
	"'",
	"\\",
	"%_",
	"\u0000",
	"🙂",
	"   ",
	"a".repeat(5000),
];

describe("SessionIndex.search", () => {
	useTempAgentDir();
	let index: SessionIndex;
	let alpha = "";

	beforeEach(async () => {
		alpha = await writeSession("/work/alpha", [
			userMessage("why does the websocket reconnect loop forever"),
			toolCallMessage("bash", { command: "grep -rn needlework source/net" }),
			toolResultMessage("source/net/socket.ts:12: reconnect(); // needlework"),
			assistantMessage("The websocket reconnect has no backoff. Websocket websocket websocket."),
		]);
		await writeSession("/work/beta", [
			userMessage("add a websocket handshake header to the proxy, plus docs for the whole thing"),
			assistantMessage("Added the header."),
		]);
		index = SessionIndex.open();
		await index.refresh();
	});
	afterEach(() => index.close());

	it("ranks prompts before answers, newest first, and highlights the terms", () => {
		const hits = index.search("websocket");
		expect(hits.map((h) => [h.cwd, h.role])).toEqual([
			["/work/beta", "user"],
			["/work/alpha", "user"],
			["/work/alpha", "assistant"],
		]);
		expect(hits[2]).toMatchObject({ sessionPath: alpha, role: "assistant", cwd: "/work/alpha" });
		expect(hits[2]?.snippet).toContain("[websocket]");
		expect(hits[2]?.snippet).toContain("[Websocket]");
		expect(typeof hits[2]?.entryId).toBe("string");
		expect(hits[2]?.sessionId).toBe(index.list("/work/alpha")[0]?.id);
	});

	it("filters by project and by role", () => {
		expect(index.search("websocket", { cwd: "/work/beta" }).map((h) => h.cwd)).toEqual(["/work/beta"]);
		expect(index.search("websocket", { role: "user" })).toHaveLength(2);
		expect(index.search("websocket", { role: "user", cwd: "/work/alpha" })).toHaveLength(1);
		expect(index.search("websocket", { role: "toolResult" })).toEqual([]);
		expect(index.search("websocket", { cwd: "/elsewhere" })).toEqual([]);
	});

	it("filters by time", () => {
		const hits = index.search("websocket");
		const newest = Math.max(...hits.map((h) => h.timestamp));
		expect(index.search("websocket", { since: newest + 1 })).toEqual([]);
		expect(index.search("websocket", { until: new Date(newest) })).toHaveLength(3);
		expect(index.search("websocket", { since: new Date(newest) }).every((h) => h.timestamp >= newest)).toBe(true);
	});

	it("matches whole words and the last one as a prefix, tool calls and tool results included", () => {
		expect(index.search("websocket reconn")).toHaveLength(2);
		expect(index.search("webs reconnect")).toEqual([]);
		expect(index.search("websocket handsh")).toHaveLength(1);
		expect(index.search("websocket zebra")).toEqual([]);
		const calls = index.search("grep needle");
		expect(calls.map((h) => h.role)).toEqual(["assistant"]);
		expect(calls[0]?.snippet).toContain("[grep]");
		expect(
			index
				.search("needlework")
				.map((h) => h.role)
				.sort(),
		).toEqual(["assistant", "toolResult"]);
	});

	it("honours the limit", () => {
		expect(index.search("websocket", { limit: 1 })).toHaveLength(1);
		expect(index.search("websocket", { limit: 0 })).toEqual([]);
		expect(index.search("websocket", { limit: Number.NaN })).toEqual([]);
	});

	it("never throws on FTS syntax or odd input", () => {
		for (const query of NASTY_QUERIES) {
			expect(() => index.search(query), query).not.toThrow();
			expect(() => index.search(`websocket ${query}`), query).not.toThrow();
		}
		expect(index.search('"websocket')).toHaveLength(3);
		expect(index.search("websocket AND")).toEqual([]);
		expect(index.search("")).toEqual([]);
	});
});
