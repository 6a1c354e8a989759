import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { describeShareDestination } from "../../../source/export/share-destination.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import { type FakeGh, makeFakeGh, writeExecutable } from "./helpers.js";

describe("where /share uploads, as the confirm step says it", () => {
	const temp = useTempAgentDir();
	let gh: FakeGh;
	beforeEach(() => {
		gh = makeFakeGh(temp.root);
	});

	it("names the share module when there is one (it wins over gh)", async () => {
		mkdirSync(temp.agentDir, { recursive: true });
		writeFileSync(join(temp.agentDir, "share.mjs"), "export default async () => 'https://s.example/x';\n");
		expect(await describeShareDestination({ agentDir: temp.agentDir, env: gh.env() })).toBe(
			`your share module ${join(temp.agentDir, "share.mjs")}`,
		);
	});

	it("names gh's host and account for a gist (both gh output styles)", async () => {
		expect(await describeShareDestination({ agentDir: temp.agentDir, env: gh.env() })).toBe(
			"a secret gist on github.com/tester",
		);
		// gh 2.23 (Debian's) says "as <user>" on stderr.
		writeExecutable(
			join(gh.bin, "gh"),
			'#!/bin/sh\necho "github.com" >&2\necho "  ✓ Logged in to ghe.example.com as octo-cat (oauth_token)" >&2\n',
		);
		expect(await describeShareDestination({ agentDir: temp.agentDir, env: gh.env() })).toBe(
			"a secret gist on ghe.example.com/octo-cat",
		);
		writeExecutable(join(gh.bin, "gh"), "#!/bin/sh\nexit 0\n");
		expect(await describeShareDestination({ agentDir: temp.agentDir, env: gh.env() })).toBe("a secret GitHub gist");
	});

	it("says gh is not logged in, or not installed", async () => {
		expect(await describeShareDestination({ agentDir: temp.agentDir, env: gh.env("ok", 1) })).toBe(
			'a secret GitHub gist (gh is not logged in: run "gh auth login")',
		);
		expect(
			await describeShareDestination({
				agentDir: temp.agentDir,
				env: { ...process.env, PATH: join(temp.root, "none") },
			}),
		).toBe("a secret GitHub gist (gh is not installed)");
	});
});
