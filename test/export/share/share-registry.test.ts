import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { gistIdOf, readShares, recordShare, revokeShare, sharesPath } from "../../../source/export/share-registry.js";
import { runCli } from "../../helpers/run-cli.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";

describe("the share registry", () => {
	const temp = useTempAgentDir();
	let bin: string;
	let calls: string;

	beforeEach(() => {
		bin = join(temp.root, "bin");
		calls = join(temp.root, "gh-calls.txt");
		mkdirSync(bin);
		writeFileSync(join(bin, "gh"), `#!/bin/sh\necho "$@" >> "${calls}"\n`);
		chmodSync(join(bin, "gh"), 0o755);
	});

	const gistShare = {
		sessionId: "01a2300000000001",
		sharedAt: "2026-12-01T08:00:00.000Z",
		url: "https://gistpreview.github.io/?0123456789abcdef",
		gistUrl: "https://gist.github.com/someone/0123456789abcdef",
		gistId: "0123456789abcdef",
		scope: "the active branch",
	};

	it("records shares, lists them, and revokes a gist with gh gist delete (the session need not exist)", async () => {
		expect(await readShares()).toEqual([]);
		const record = await recordShare(gistShare);
		expect(record.id).toMatch(/^[0-9a-f]{8}$/);
		expect(await readShares()).toEqual([record]);
		const revoked = await revokeShare(record.id, { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
		expect(revoked.revokedAt).toBeDefined();
		expect(readFileSync(calls, "utf8")).toBe("gist delete 0123456789abcdef\n");
		expect((await readShares())[0]?.revokedAt).toBe(revoked.revokedAt);
		await expect(revokeShare(record.id)).rejects.toThrow(`Share ${record.id} was already revoked on`);
		await expect(revokeShare("nope")).rejects.toThrow("No share nope (see /shares)");
	});

	it("a custom share is revoked through the module's revoke(url) export", async () => {
		mkdirSync(temp.agentDir, { recursive: true });
		const module = join(temp.agentDir, "share.mjs");
		const revokedLog = join(temp.root, "revoked.txt");
		writeFileSync(
			module,
			`import { appendFileSync } from "node:fs";\nexport default async () => "https://share.example/x";\nexport async function revoke(url) { appendFileSync(${JSON.stringify(revokedLog)}, url); }\n`,
		);
		const record = await recordShare({
			sessionId: "s",
			sharedAt: "t",
			url: "https://share.example/x",
			scope: "the whole tree",
			handler: module,
		});
		await revokeShare(record.id);
		expect(readFileSync(revokedLog, "utf8")).toBe("https://share.example/x");
		writeFileSync(module, "export default async () => undefined;\n");
		const other = await recordShare({
			sessionId: "s",
			sharedAt: "t",
			url: "https://share.example/y",
			scope: "x",
			handler: module,
		});
		await expect(revokeShare(other.id)).rejects.toThrow(`${module} has no revoke(url) export`);
	});

	it("a damaged shares.json is an error and is never overwritten", async () => {
		mkdirSync(temp.agentDir, { recursive: true });
		writeFileSync(sharesPath(), "{not json");
		await expect(recordShare(gistShare)).rejects.toThrow(`${sharesPath()} is damaged`);
		expect(readFileSync(sharesPath(), "utf8")).toBe("{not json");
	});

	it("gist ids come from gist URLs", () => {
		expect(gistIdOf("https://gist.github.com/someone/0123456789abcdef")).toBe("0123456789abcdef");
		expect(gistIdOf("https://share.example/x")).toBeUndefined();
	});

	it("xcsh shares lists every share and revokes one", async () => {
		expect(runCli(["shares"], { agentDir: temp.agentDir, cwd: temp.root }).stdout).toBe(
			"Nothing has been shared yet.\n",
		);
		const record = await recordShare(gistShare);
		const list = runCli(["shares"], { agentDir: temp.agentDir, cwd: temp.root });
		expect(list.stdout).toContain(record.id);
		expect(list.stdout).toContain("live");
		const env = { PATH: `${bin}:${process.env.PATH}` };
		process.env.PATH = env.PATH;
		try {
			const revoked = runCli(["shares", "revoke", record.id], { agentDir: temp.agentDir, cwd: temp.root });
			expect(revoked).toMatchObject({ status: 0, stdout: `Revoked ${gistShare.url}\n` });
		} finally {
			process.env.PATH = process.env.PATH.replace(`${bin}:`, "");
		}
		expect(existsSync(calls)).toBe(true);
		expect(runCli(["shares", "revoke"], { agentDir: temp.agentDir, cwd: temp.root })).toMatchObject({
			status: 2,
			stderr: "Usage: xcsh shares revoke <id>\n",
		});
	});
});
