import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createGist, parseGistUrl, tildify } from "../../../source/export/gist-share.js";
import { shareSession } from "../../../source/export/share.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import {
	type FakeGh,
	fakeExporter,
	makeFakeGh,
	processExists,
	processRuns,
	waitForFile,
	waitUntil,
} from "./helpers.js";

const HTML = "<html><body>gist me</body></html>";

describe("sharing as a GitHub gist", () => {
	const temp = useTempAgentDir();
	let gh: FakeGh;

	beforeEach(() => {
		gh = makeFakeGh(temp.root);
	});

	const calls = () => (existsSync(gh.log) ? readFileSync(gh.log, "utf8").split("\n").slice(0, -1) : []);

	/** Shares with no share module; resolves to the result or the error message, and checks the temp file is gone. */
	async function share(env: NodeJS.ProcessEnv, signal?: AbortSignal) {
		const exporter = fakeExporter(HTML);
		const phases: string[] = [];
		const run = shareSession({
			exportHtml: exporter.exportHtml,
			signal,
			onPhase: (p) => phases.push(p),
			agentDir: temp.agentDir,
			env,
		}).then(
			(result) => ({ result, error: undefined }),
			(error: Error) => ({ result: undefined, error: error.message }),
		);
		const outcome = await run;
		expect(exporter.paths.length).toBeLessThanOrEqual(1);
		for (const path of exporter.paths) expect(existsSync(path)).toBe(false);
		return { ...outcome, phases, htmlPath: exporter.paths[0] };
	}

	it("creates a secret gist and returns its preview and gist URLs", async () => {
		const { result, phases, htmlPath } = await share(gh.env());
		expect(result).toEqual({
			kind: "shared",
			previewUrl: "https://gistpreview.github.io/?0123456789abcdef",
			gistUrl: "https://gist.github.com/tester/0123456789abcdef",
		});
		expect(phases).toEqual(["Creating gist"]);
		expect(calls()).toEqual(["auth status", `gist create --public=false ${htmlPath}`]);
		// gh got the exported page itself, while it still existed.
		expect(readFileSync(gh.seenHtml, "utf8")).toBe(HTML);
	});

	it("parses the last gist URL in the output", () => {
		expect(parseGistUrl("x https://gist.github.com/a/111\nhttps://gist.github.com/b/222/\n")).toEqual({
			gistUrl: "https://gist.github.com/b/222",
			gistId: "222",
		});
		expect(parseGistUrl("https://gist.github.com/abc123")).toEqual({
			gistUrl: "https://gist.github.com/abc123",
			gistId: "abc123",
		});
		expect(parseGistUrl("nothing here https://github.com/x/y")).toBeUndefined();
	});

	it("says gh is not installed, naming the share module path", async () => {
		const { error } = await share({ ...process.env, PATH: join(temp.root, "empty-bin") });
		expect(error).toBe(
			`GitHub CLI (gh) is not installed. Install it, or add a share module at ${join(temp.agentDir, "share.js")}`,
		);
		await expect(
			createGist("x.html", {
				env: { PATH: join(temp.root, "empty-bin") },
				agentDir: join(homedir(), ".xcsh", "agent"),
			}),
		).rejects.toThrow("GitHub CLI (gh) is not installed. Install it, or add a share module at ~/.xcsh/agent/share.js");
		expect(tildify(join(homedir(), "a"))).toBe("~/a");
		expect(tildify(`${homedir()}x/a`)).toBe(`${homedir()}x/a`);
	});

	it("says gh is not logged in when gh auth status fails, and never creates a gist", async () => {
		const { error } = await share(gh.env("ok", 1));
		expect(error).toBe('GitHub CLI is not logged in. Run "gh auth login", then /share again.');
		expect(calls()).toEqual(["auth status"]);
	});

	it("reports gh's error line when gist create fails, skipping its progress line", async () => {
		const { error } = await share(gh.env("fail"));
		expect(error).toBe(
			"gh gist create failed: X Failed to create gist: HTTP 401: Bad credentials (https://api.github.com/gists)",
		);
	});

	it("fails clearly when gh prints no gist URL", async () => {
		const { error } = await share(gh.env("nourl"));
		expect(error).toBe("gh gist create failed: no gist URL in its output");
	});

	it("kills a slow gh gist create on cancel and reports cancelled", async () => {
		const controller = new AbortController();
		const sharing = share(gh.env("slow"), controller.signal);
		await waitForFile(gh.pidFile);
		const pid = Number(readFileSync(gh.pidFile, "utf8"));
		expect(processExists(pid)).toBe(true);
		controller.abort();
		const { result } = await sharing;
		expect(result).toEqual({ kind: "cancelled" });
		expect(processExists(pid)).toBe(false);
	});

	it("cancel kills gh's own children too (its whole process group)", async () => {
		const controller = new AbortController();
		const sharing = share(gh.env("children"), controller.signal);
		await waitForFile(gh.pidFile);
		const child = Number(readFileSync(gh.pidFile, "utf8"));
		expect(processRuns(child)).toBe(true);
		controller.abort();
		expect((await sharing).result).toEqual({ kind: "cancelled" });
		await waitUntil(() => !processRuns(child), `gh's child ${child} is gone`, 5000);
	});

	it("escalates to SIGKILL when gh ignores SIGTERM, and rejects with an AbortError", async () => {
		const controller = new AbortController();
		const creating = createGist(join(temp.root, "page.html"), { env: gh.env("stubborn"), signal: controller.signal });
		const settled = creating.catch((error: Error) => error);
		await waitForFile(gh.pidFile);
		const pid = Number(readFileSync(gh.pidFile, "utf8"));
		controller.abort();
		const error = await settled;
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).name).toBe("AbortError");
		// It ignores SIGTERM (`trap '' TERM` survives its exec): only the SIGKILL that follows ends it.
		expect(processExists(pid)).toBe(false);
	});

	it("does not start gh at all when already cancelled", async () => {
		const controller = new AbortController();
		controller.abort();
		const { result, htmlPath } = await share(gh.env(), controller.signal);
		expect(result).toEqual({ kind: "cancelled" });
		expect(htmlPath).toBeUndefined();
		expect(calls()).toEqual([]);
	});
});
