import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, type FSWatcher, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { importPaths } from "../../source/import/import-run.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

// An import SIGKILLed at any moment leaves no half-written session, and the next run cleans up
// after it (no temp file, no session twice) and completes the import. The kill moments are seen
// in the agent dir as the child writes it: a temp file, the batch's journal, a session under its
// name, a record.

const PROJECT_ROOT = resolve(import.meta.dirname, "../..");
const SOURCES = 150;
const base = { from: "auto" as const, dryRun: false, cwd: "/projects/fallback", cwdGiven: false };

/** A Claude Code session of `turns` exchanges (tens of KB each), under its own session id. */
function claudeSession(i: number, turns: number): string {
	const lines: string[] = [];
	let parent: string | null = null;
	const common = { sessionId: `kill-${i}`, cwd: `/work/p${i % 3}`, version: "2.1.38", isSidechain: false };
	for (let t = 0; t < turns; t++) {
		const timestamp = new Date(1_760_000_000_000 + i * 1e7 + t * 1000).toISOString();
		const user = { ...common, type: "user", uuid: `u-${i}-${t}`, parentUuid: parent, timestamp };
		lines.push(JSON.stringify({ ...user, message: { role: "user", content: `question ${t} ${"x".repeat(2000)}` } }));
		parent = `a-${i}-${t}`;
		const message = {
			id: `m-${i}-${t}`,
			role: "assistant",
			model: "claude-opus-4-6",
			content: [{ type: "text", text: "y".repeat(8000) }],
		};
		lines.push(
			JSON.stringify({ ...common, type: "assistant", uuid: parent, parentUuid: `u-${i}-${t}`, timestamp, message }),
		);
	}
	return `${lines.join("\n")}\n`;
}

/** Every file under `dir` (relative paths). */
function filesUnder(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return (readdirSync(dir, { recursive: true }) as string[]).filter(
		(name) => !existsSync(join(dir, name, ".")) || true,
	);
}

type Moment = "temp file" | "journal" | "session" | "record";

/** True when the agent dir shows the moment. */
function seen(agentDir: string, moment: Moment): boolean {
	const sessions = filesUnder(join(agentDir, "sessions"));
	const imports = existsSync(join(agentDir, "imports")) ? readdirSync(join(agentDir, "imports")) : [];
	switch (moment) {
		case "temp file":
			return sessions.some((name) => name.endsWith(".tmp"));
		case "journal":
			return imports.some((name) => name.startsWith(".linking."));
		case "session":
			return sessions.some((name) => name.endsWith(".jsonl"));
		case "record":
			return imports.some((name) => /^claude-code-[0-9a-f]+\.json$/.test(name));
	}
}

describe("an import killed at any moment", () => {
	const temp = useTempAgentDir();
	const children: ChildProcess[] = [];
	const watchers: FSWatcher[] = [];
	afterEach(() => {
		for (const child of children.splice(0)) child.kill("SIGKILL");
		for (const watcher of watchers.splice(0)) watcher.close();
	});

	/** Runs the import child and SIGKILLs it as soon as the agent dir shows `moment`; true when it was killed before it finished. */
	async function importAndKill(paths: string[], moment: Moment): Promise<boolean> {
		const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/import-child.ts", ...paths], {
			cwd: PROJECT_ROOT,
			env: { ...process.env, XCSH_AGENT_DIR: temp.agentDir },
			stdio: ["ignore", "pipe", "inherit"],
		});
		children.push(child);
		let out = "";
		child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
			out += chunk;
		});
		const exited = once(child, "exit");
		const look = () => {
			if (child.exitCode === null && seen(temp.agentDir, moment)) child.kill("SIGKILL");
		};
		// The agent dir's folders as they are made: each is watched, and looked at on every change.
		const watched = new Set<string>();
		const watchAll = () => {
			for (const dir of [temp.agentDir, join(temp.agentDir, "imports"), join(temp.agentDir, "sessions")])
				if (existsSync(dir) && !watched.has(dir)) add(dir);
			const sessions = join(temp.agentDir, "sessions");
			if (existsSync(sessions))
				for (const name of readdirSync(sessions)) if (!watched.has(join(sessions, name))) add(join(sessions, name));
		};
		const add = (dir: string) => {
			watched.add(dir);
			watchers.push(
				watch(dir, () => {
					watchAll();
					look();
				}),
			);
		};
		mkdirSync(temp.agentDir, { recursive: true });
		watchAll();
		await exited;
		return !out.startsWith("done");
	}

	/** Each visible session file is whole: every line is JSON, the last one ends, and it has as many lines as a clean import gives. */
	function expectWholeSessions(agentDir: string, lines: Map<string, number>): string[] {
		const sessions = join(agentDir, "sessions");
		const found = filesUnder(sessions).filter((name) => name.endsWith(".jsonl"));
		const sources: string[] = [];
		for (const name of found) {
			const text = readFileSync(join(sessions, name), "utf8");
			expect(text.endsWith("\n")).toBe(true);
			const parsed = text
				.trimEnd()
				.split("\n")
				.map((line) => JSON.parse(line) as { data?: { sourcePath?: string } });
			const source = parsed[1]!.data!.sourcePath!;
			expect(parsed.length).toBe(lines.get(source));
			sources.push(source);
		}
		return sources;
	}

	it.each<Moment>(["temp file", "journal", "session", "record"])(
		"killed once it wrote a %s: no half-written session, and the next run cleans up and completes",
		async (moment) => {
			// Two folders, imported one after the other by the child: the kill lands in the first, and the
			// second is the bigger so a loaded machine still kills before the child is done.
			const corpus = join(temp.root, "corpus");
			for (let i = 0; i < SOURCES; i++) {
				const dir = join(corpus, i < SOURCES * 0.3 ? "a" : "b");
				mkdirSync(dir, { recursive: true });
				writeFileSync(join(dir, `${String(i).padStart(3, "0")}.jsonl`), claudeSession(i, 2 + (i % 5)));
			}
			// What a clean import gives: the lines of each source's session.
			const clean = join(temp.root, "clean");
			const previous = process.env.XCSH_AGENT_DIR;
			process.env.XCSH_AGENT_DIR = clean;
			await importPaths([corpus], base);
			process.env.XCSH_AGENT_DIR = previous;
			const lines = new Map<string, number>();
			for (const name of filesUnder(join(clean, "sessions")).filter((n) => n.endsWith(".jsonl"))) {
				const text = readFileSync(join(clean, "sessions", name), "utf8")
					.trimEnd()
					.split("\n");
				lines.set((JSON.parse(text[1]!) as { data: { sourcePath: string } }).data.sourcePath, text.length);
			}
			expect(lines.size).toBe(SOURCES);

			const killed = await importAndKill([join(corpus, "a"), join(corpus, "b")], moment);
			expect(killed).toBe(true);
			expectWholeSessions(temp.agentDir, lines);

			const next = await importPaths([corpus], base);
			expect(next.filter((r) => r.status !== "imported" && r.status !== "unchanged")).toEqual([]);
			const everything = filesUnder(temp.agentDir);
			expect(everything.filter((name) => name.endsWith(".tmp") || name.includes(".linking."))).toEqual([]);
			// Every source once: none lost, none twice.
			expect(expectWholeSessions(temp.agentDir, lines).sort()).toEqual([...lines.keys()].sort());
			expect((await importPaths([corpus], base)).every((r) => r.status === "unchanged")).toBe(true);
		},
		120_000,
	);
});
