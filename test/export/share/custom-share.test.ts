import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCustomShare } from "../../../source/export/custom-share.js";
import { shareSession } from "../../../source/export/share.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import { type FakeGh, fakeExporter, makeFakeGh } from "./helpers.js";

type Hook = (htmlPath: string, signal: AbortSignal | undefined) => void;
const hooks = globalThis as { __xcshShareTest?: Hook };

describe("custom share modules", () => {
	const temp = useTempAgentDir();
	let gh: FakeGh;

	beforeEach(() => {
		mkdirSync(temp.agentDir, { recursive: true });
		gh = makeFakeGh(temp.root);
	});
	afterEach(() => {
		delete hooks.__xcshShareTest;
	});

	const writeModule = (name: string, source: string) => writeFileSync(join(temp.agentDir, name), source);

	async function share(signal?: AbortSignal) {
		const exporter = fakeExporter();
		const phases: string[] = [];
		const run = shareSession({
			exportHtml: exporter.exportHtml,
			signal,
			onPhase: (phase) => phases.push(phase),
			agentDir: temp.agentDir,
			env: gh.env(),
		});
		return { run, phases, exporter };
	}

	/** Runs a share to completion and checks the temp HTML is gone and gh was never called. */
	async function shareToEnd(signal?: AbortSignal) {
		const { run, phases, exporter } = await share(signal);
		const outcome = await run.then(
			(result) => ({ result, error: undefined }),
			(error: Error) => ({ result: undefined, error: error.message }),
		);
		expect(exporter.paths).toHaveLength(1);
		expect(exporter.paths[0]!.startsWith(tmpdir())).toBe(true);
		expect(existsSync(exporter.paths[0]!)).toBe(false);
		expect(existsSync(gh.log)).toBe(false);
		return { ...outcome, phases };
	}

	it("finds nothing in an empty agent dir", async () => {
		expect(await loadCustomShare(temp.agentDir)).toBeUndefined();
		expect(await loadCustomShare(join(temp.root, "missing"))).toBeUndefined();
	});

	it("treats a returned string as the URL, reading the temp HTML while it exists", async () => {
		writeModule(
			"share.mjs",
			`import { readFileSync } from "node:fs";
export default async (htmlPath) => "https://share.example/" + encodeURIComponent(readFileSync(htmlPath, "utf8").length);`,
		);
		const { result, phases } = await shareToEnd();
		expect(phases).toEqual(["Sharing"]);
		expect(result).toEqual({
			kind: "shared",
			url: `https://share.example/${"<html><body>session</body></html>".length}`,
		});
	});

	it("passes an object's url and message through, and says Session shared for nothing", async () => {
		writeModule("share.mjs", `export default async () => ({ url: "https://s.example/1", message: "Uploaded to S" });`);
		expect((await shareToEnd()).result).toEqual({
			kind: "shared",
			url: "https://s.example/1",
			message: "Uploaded to S",
		});
		writeModule("share.mjs", `export default async () => ({ message: "Sent to the team" });`);
		expect((await shareToEnd()).result).toEqual({ kind: "shared", message: "Sent to the team" });
		writeModule("share.mjs", "export default async () => undefined;");
		expect((await shareToEnd()).result).toEqual({ kind: "shared", message: "Session shared" });
		writeModule("share.mjs", `export default async () => "";`);
		expect((await shareToEnd()).result).toEqual({ kind: "shared", message: "Session shared" });
	});

	it("transforms share.ts with esbuild, prefers it over share.js/.mjs, and leaves no compiled copy", async () => {
		const compiledCopies = () => readdirSync(tmpdir()).filter((name) => name.startsWith("xcsh-share-module-"));
		const before = compiledCopies();
		writeModule("share.mjs", `export default async () => "https://wrong.example/mjs";`);
		writeModule("share.js", `export default async () => "https://wrong.example/js";`);
		writeModule(
			"share.ts",
			`import { basename } from "node:path";
interface Result { url: string; message?: string }
export default async function share(htmlPath: string, signal?: AbortSignal): Promise<Result> {
	const name: string = basename(htmlPath);
	return { url: "https://ts.example/" + name, message: signal ? "with signal" : "without" };
}`,
		);
		const loaded = await loadCustomShare(temp.agentDir);
		expect(loaded?.path).toBe(join(temp.agentDir, "share.ts"));
		const { result } = await shareToEnd(new AbortController().signal);
		expect(result).toMatchObject({ kind: "shared", message: "with signal" });
		expect((result as { url: string }).url).toMatch(/^https:\/\/ts\.example\/[0-9a-f]{16}\.html$/);
		expect(compiledCopies()).toEqual(before);
	});

	it("loads share.js, picking up edits without a restart", async () => {
		writeModule("share.js", `export default async () => "https://js.example/1";`);
		expect((await shareToEnd()).result).toEqual({ kind: "shared", url: "https://js.example/1" });
		writeModule("share.js", `export default async () => "https://js.example/edited";`);
		expect((await shareToEnd()).result).toEqual({ kind: "shared", url: "https://js.example/edited" });
	});

	it("fails without a gist fallback when the module has no default function", async () => {
		writeModule("share.mjs", `export const share = async () => "https://x.example";`);
		const path = join(temp.agentDir, "share.mjs");
		await expect(loadCustomShare(temp.agentDir)).rejects.toThrow(
			`Failed to load share module ${path}: it has no default-exported function`,
		);
		const { error, phases } = await shareToEnd();
		expect(error).toBe(`Failed to load share module ${path}: it has no default-exported function`);
		expect(phases).toEqual([]);
	});

	it("fails without a gist fallback on a syntax error, in .mjs and in .ts", async () => {
		writeModule("share.mjs", "export default async ( => {");
		const mjs = await shareToEnd();
		expect(mjs.error).toMatch(new RegExp(`^Failed to load share module ${join(temp.agentDir, "share.mjs")}: .+`));
		writeModule("share.ts", "export default async (p: string => {");
		const ts = await shareToEnd();
		expect(ts.error).toMatch(new RegExp(`^Failed to load share module ${join(temp.agentDir, "share.ts")}: .+`));
		expect(ts.phases).toEqual([]);
	});

	it("fails without a gist fallback when the handler throws", async () => {
		writeModule("share.mjs", `export default async () => { throw new Error("quota exceeded"); };`);
		const { error, phases } = await shareToEnd();
		expect(error).toBe(`Share module ${join(temp.agentDir, "share.mjs")} failed: quota exceeded`);
		expect(phases).toEqual(["Sharing"]);
	});

	it("hands the AbortSignal to the handler, and a cancel ends the share", async () => {
		writeModule(
			"share.mjs",
			`export default (htmlPath, signal) => new Promise((resolve, reject) => {
	signal.addEventListener("abort", () => reject(signal.reason));
	globalThis.__xcshShareTest(htmlPath, signal);
});`,
		);
		const started = new Promise<{ htmlPath: string; signal: AbortSignal | undefined }>((resolve) => {
			hooks.__xcshShareTest = (htmlPath, signal) => resolve({ htmlPath, signal });
		});
		const controller = new AbortController();
		const { run, exporter } = await share(controller.signal);
		const seen = await started;
		expect(seen.signal).toBe(controller.signal);
		expect(existsSync(seen.htmlPath)).toBe(true);
		controller.abort();
		expect(await run).toEqual({ kind: "cancelled" });
		expect(seen.signal?.aborted).toBe(true);
		expect(existsSync(exporter.paths[0]!)).toBe(false);
		expect(existsSync(gh.log)).toBe(false);
	});

	it("ends at once on cancel even when the handler ignores the signal", async () => {
		writeModule(
			"share.mjs",
			"export default (htmlPath) => new Promise(() => globalThis.__xcshShareTest(htmlPath, undefined));",
		);
		const started = new Promise<void>((resolve) => {
			hooks.__xcshShareTest = () => resolve();
		});
		const controller = new AbortController();
		const { run, exporter } = await share(controller.signal);
		await started;
		controller.abort();
		expect(await run).toEqual({ kind: "cancelled" });
		expect(existsSync(exporter.paths[0]!)).toBe(false);
	});
});
