import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRedactionConfig, parseRedactionConfig, redactionConfigPath } from "../../source/redaction/config.js";
import { redactEntries, redactText } from "../../source/redaction/redact.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";
import { planted } from "./corpus.js";

const github = planted.find((p) => p.kind === "github-token")!;
const awsKeys = planted.filter((p) => p.kind === "aws-access-key-id");

function writeConfig(content: string): void {
	const path = redactionConfigPath();
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, content);
}

describe("redaction.json", () => {
	const dirs = useTempAgentDir();

	it("lives in the agent dir, and a missing file is no error", () => {
		expect(redactionConfigPath()).toBe(`${dirs.agentDir}/redaction.json`);
		expect(loadRedactionConfig()).toMatchObject({ status: "missing", config: { patterns: [], allow: [] } });
	});

	it("adds patterns, whole match or the (?<secret>) group", () => {
		writeConfig(
			JSON.stringify({
				patterns: [
					{ kind: "acme-token", regex: "acme_[a-z0-9]{20}" },
					{ kind: "acme-pin", regex: "pin (?<secret>\\d{6})\\b", flags: "i" },
				],
			}),
		);
		const loaded = loadRedactionConfig();
		expect(loaded.status).toBe("ok");
		const text = "call with acme_0123456789abcdefghij and PIN 424242 today";
		const { text: out, findings } = redactText(text, { config: loaded.config, env: false });
		expect(out).toBe("call with [REDACTED:acme-token] and PIN [REDACTED:acme-pin] today");
		expect(findings.map((f) => [f.kind, f.preview])).toEqual([
			["acme-token", "acme…"],
			["acme-pin", "42…"],
		]);
	});

	it("applies extra patterns to entries too, never inside image data", () => {
		writeConfig(JSON.stringify({ patterns: [{ kind: "acme-token", regex: "acme_[a-z0-9]{20}" }] }));
		const session = SessionManager.inMemory("/p");
		const image = {
			type: "image" as const,
			data: "data:image/png;base64,acme_0123456789abcdefghij",
			mimeType: "image/png",
		};
		session.appendMessage({
			role: "user",
			content: [
				{ type: "text", text: "![acme_0123456789abcdefghij](data:image/png;base64,acme0123456789abcdefghij)" },
				image,
			],
			timestamp: 1,
		});
		const { entries, summary } = redactEntries(session.getEntries(), { config: loadRedactionConfig().config });
		const json = JSON.stringify(entries);
		expect(json).toContain("![[REDACTED:acme-token]](data:image/png;base64,acme0123456789abcdefghij)");
		expect(json).toContain(JSON.stringify(image.data));
		expect(summary.byKind).toEqual({ "acme-token": 1 });
	});

	it("lets allow-listed secrets through, exact or /regex/", () => {
		writeConfig(JSON.stringify({ allow: [github.secret, "/^A[KS]IAFAKE/"] }));
		const { config } = loadRedactionConfig();
		for (const p of [github, ...awsKeys]) {
			expect(redactText(p.text, { config, env: false }).text).toBe(p.text);
		}
		const other = planted.find((p) => p.kind === "gitlab-token")!;
		expect(redactText(other.text, { config, env: false }).text).not.toContain(other.secret);
	});

	it("explains a malformed file in one line and keeps the built-in detectors", () => {
		writeConfig(JSON.stringify({ patterns: [{ kind: "acme-token", regex: "acme_[a-z" }] }));
		const loaded = loadRedactionConfig();
		expect(loaded.status).toBe("invalid");
		if (loaded.status !== "invalid") return;
		expect(loaded.message).toMatch(/^redaction\.json: patterns\[0\]\.regex is not a valid regular expression: .+/);
		expect(loaded.message).not.toContain("\n");
		expect(redactText(github.text, { config: loaded.config, env: false }).text).not.toContain(github.secret);
	});

	it("keeps the valid parts of a file that is partly wrong", () => {
		const parsed = parseRedactionConfig(
			JSON.stringify({
				patterns: [{ kind: "ok-one", regex: "ok_[0-9]{4}" }, { kind: "bad kind!", regex: "x" }, { regex: "" }],
				allow: ["/(/", "keep-me"],
				pattern: [],
			}),
		);
		expect(parsed.config.patterns.map((p) => p.kind)).toEqual(["ok-one"]);
		expect(parsed.config.allow).toEqual([{ type: "exact", value: "keep-me" }]);
		expect(parsed.errors).toEqual([
			'unknown key "pattern" (expected "patterns" or "allow")',
			'patterns[1].kind must be a short id of letters, digits, "-", "_" or "." (like "acme-token")',
			'patterns[2].kind must be a short id of letters, digits, "-", "_" or "." (like "acme-token")',
			expect.stringMatching(/^allow\[0\] is not a valid regular expression: /),
		]);
	});

	it.each([
		["not JSON", "{ patterns: ", /^redaction\.json: is not valid JSON: /],
		["not an object", "[]", /^redaction\.json: must be a JSON object$/],
		["patterns not a list", '{"patterns": {}}', /^redaction\.json: patterns must be an array$/],
		[
			"empty-matching regex",
			'{"patterns": [{"kind": "k", "regex": "a*"}]}',
			/patterns\[0\]\.regex matches the empty string/,
		],
		[
			"bad flags",
			'{"patterns": [{"kind": "k", "regex": "a", "flags": "g"}]}',
			/patterns\[0\]\.regex has unsupported flags "g"/,
		],
		["several problems", '{"allow": [1, 2]}', /^redaction\.json: allow\[0\] must be .+ \(and 1 more\)$/],
	])("reports %s", (_, content, message) => {
		writeConfig(content);
		const loaded = loadRedactionConfig();
		expect(loaded.status).toBe("invalid");
		expect(loaded.status === "invalid" && loaded.message).toMatch(message);
	});

	it("ignores the allow-list for nothing else: a user message keeps its other secrets redacted", () => {
		writeConfig(JSON.stringify({ allow: [github.secret] }));
		const session = SessionManager.inMemory("/p");
		session.appendMessage(userMessage(`${github.text}\n${awsKeys[0]!.text}`));
		const { entries, summary } = redactEntries(session.getEntries(), {
			config: loadRedactionConfig().config,
			env: false,
		});
		expect(JSON.stringify(entries)).toContain(github.secret);
		expect(JSON.stringify(entries)).not.toContain(awsKeys[0]!.secret);
		expect(summary.byKind).toEqual({ "aws-access-key-id": 1 });
	});
});
