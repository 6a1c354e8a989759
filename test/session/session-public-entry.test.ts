import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** The documented `xcsh/session` example (docs/scripting.md): its first js block. */
function documentedExample(): string {
	const page = readFileSync(join(ROOT, "docs", "scripting.md"), "utf8");
	const match = /```js\n([\s\S]*?)```/.exec(page);
	if (!match) throw new Error("docs/scripting.md has no js example");
	return match[1]!;
}

/** Hard-links a directory tree (instant, no bytes copied): the installed packages stay untouched. */
function linkTree(from: string, to: string): void {
	mkdirSync(to, { recursive: true });
	for (const name of readdirSync(from)) {
		const source = join(from, name);
		const target = join(to, name);
		const stat = statSync(source);
		if (stat.isDirectory()) linkTree(source, target);
		else if (stat.isFile()) linkSync(source, target);
	}
}

/**
 * Gives the user's project the packages xcsh depends on (not its dev tools), linked from this
 * checkout: `npm install --offline` then finds every dependency already there and needs neither
 * the network nor a warm cache, and `--ignore-scripts` skips compiling the native modules again.
 */
function seedDependencies(project: string): void {
	const lock = JSON.parse(readFileSync(join(ROOT, "node_modules/.package-lock.json"), "utf8")) as {
		packages: Record<string, { dev?: boolean; link?: boolean }>;
	};
	for (const [path, info] of Object.entries(lock.packages)) {
		// Nested packages come with the top-level one that holds them.
		if (info.dev || info.link || path.split("node_modules/").length !== 2) continue;
		linkTree(join(ROOT, path), join(project, path));
	}
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
	return execFileSync(command, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("xcsh/session, installed from the packed tarball", () => {
	let temp: string;
	let project: string;

	beforeAll(async () => {
		temp = await mkdtemp(join(tmpdir(), "xcsh-public-entry-"));
		project = join(temp, "project");
		// The bundle is built by the test setup; packing with the prepare script would rebuild dist/
		// under the end-to-end tests running beside this one, so the types are emitted here instead.
		run("npm", ["run", "--silent", "build:types"], ROOT);
		const [packed] = JSON.parse(
			run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", temp], ROOT),
		) as { filename: string }[];
		mkdirSync(project);
		writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true }));
		seedDependencies(project);
		run(
			"npm",
			["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", join(temp, packed!.filename)],
			project,
		);
	}, 180_000);

	afterAll(() => {
		rmSync(temp, { recursive: true, force: true });
	});

	it("runs the documented example (docs/scripting.md) from plain JavaScript", () => {
		const agentDir = join(temp, "agent");
		writeFileSync(join(project, "example.mjs"), documentedExample());
		const env = { ...process.env, XCSH_AGENT_DIR: agentDir, XCSH_TERMINAL_ID: "public-entry" };
		const first = run(process.execPath, ["example.mjs"], project, env).split("\n");
		expect(first[0]).toBe(`Sessions for ${project}: 0`);
		const file = /^written to (.+)$/.exec(first[1] ?? "")?.[1];
		expect(file).toBeDefined();
		expect(dirname(file!).startsWith(join(agentDir, "sessions"))).toBe(true);
		expect(JSON.parse(readFileSync(file!, "utf8").split("\n")[0]!)).toMatchObject({ type: "session", cwd: project });
		expect(first[2]).toBe("user -> assistant");
		// The session the script wrote is listed the next time, as the CLI would list it.
		expect(run(process.execPath, ["example.mjs"], project, env).split("\n")[0]).toBe(`Sessions for ${project}: 1`);
	});

	it("ships its types, and nothing but xcsh/session is importable", () => {
		const installed = join(project, "node_modules/xcsh");
		const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
			exports: { "./session": { types: string } };
		};
		const types = readFileSync(join(installed, manifest.exports["./session"].types), "utf8");
		expect(types).toContain("SessionManager");
		expect(types).toContain("buildSessionContext");
		expect(existsSync(join(installed, "source"))).toBe(false);
		const internal = spawnSync(process.execPath, ["--input-type=module", "-e", 'await import("xcsh/dist/main.js")'], {
			cwd: project,
			encoding: "utf8",
		});
		expect(internal.status).not.toBe(0);
		expect(internal.stderr).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
	});
});
