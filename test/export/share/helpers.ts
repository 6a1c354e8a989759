import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Writes an executable script. */
export function writeExecutable(path: string, content: string): string {
	writeFileSync(path, content);
	chmodSync(path, 0o755);
	return path;
}

/** Resolves once `path` exists; polls the file system (the thing waited on), never a fixed sleep. */
export async function waitForFile(path: string, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!existsSync(path)) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${path}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

/** True while a process with this pid runs (a zombie waiting to be reaped does not count). */
export function processRuns(pid: number): boolean {
	try {
		// Field 3 of /proc/<pid>/stat is the state; the name before it is in parentheses and may hold spaces.
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
	} catch {
		return false;
	}
}

/** Resolves once `condition` holds; polls (the thing waited on), never a fixed sleep. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

/** True while a process with this pid exists. */
export function processExists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** A fake `gh` (first on PATH) that logs each argv line to `log` and copies the shared HTML to `seen.html`. */
export interface FakeGh {
	bin: string;
	log: string;
	seenHtml: string;
	pidFile: string;
	/** The env to hand to createGist/shareSession, with the fake's behaviour selected. */
	/** `children`: gh starts a child of its own (its pid in `pidFile`) and waits for it. */
	env(mode?: "ok" | "fail" | "nourl" | "slow" | "stubborn" | "children", authExit?: number): NodeJS.ProcessEnv;
}

/** Installs a fake gh under `root`. */
export function makeFakeGh(root: string): FakeGh {
	const bin = join(root, "bin");
	mkdirSync(bin, { recursive: true });
	const log = join(root, "gh-calls.log");
	const seenHtml = join(root, "seen.html");
	const pidFile = join(root, "gh.pid");
	writeExecutable(
		join(bin, "gh"),
		`#!/bin/sh
printf '%s\\n' "$*" >> "$FAKE_GH_LOG"
if [ "$1" = auth ]; then
	[ "$FAKE_GH_AUTH_EXIT" = 0 ] && echo "Logged in to github.com account tester" >&2
	exit "$FAKE_GH_AUTH_EXIT"
fi
cat "$4" > "$FAKE_GH_SEEN"
case "$FAKE_GH_MODE" in
	fail)
		echo "- Creating gist $(basename "$4")" >&2
		echo "X Failed to create gist: HTTP 401: Bad credentials (https://api.github.com/gists)" >&2
		exit 1 ;;
	nourl) echo "created, somehow"; exit 0 ;;
	slow) echo $$ > "$FAKE_GH_PID.tmp"; mv "$FAKE_GH_PID.tmp" "$FAKE_GH_PID"; exec sleep 30 ;;
	stubborn) trap '' TERM; echo $$ > "$FAKE_GH_PID.tmp"; mv "$FAKE_GH_PID.tmp" "$FAKE_GH_PID"; exec sleep 30 ;;
	children) sleep 30 & echo $! > "$FAKE_GH_PID.tmp"; mv "$FAKE_GH_PID.tmp" "$FAKE_GH_PID"; wait; exit 0 ;;
esac
echo "- Creating gist $(basename "$4")" >&2
echo "see https://gist.github.com/old/ffff for the old one" 
echo "https://gist.github.com/tester/0123456789abcdef"
echo "✓ Created secret gist" >&2
`,
	);
	return {
		bin,
		log,
		seenHtml,
		pidFile,
		env: (mode = "ok", authExit = 0) => ({
			...process.env,
			PATH: `${bin}:/usr/bin:/bin`,
			FAKE_GH_LOG: log,
			FAKE_GH_SEEN: seenHtml,
			FAKE_GH_PID: pidFile,
			FAKE_GH_MODE: mode,
			FAKE_GH_AUTH_EXIT: String(authExit),
		}),
	};
}

/** An exportHtml stand-in that writes a small page and records every path it was asked for. */
export function fakeExporter(html = "<html><body>session</body></html>") {
	const paths: string[] = [];
	return {
		paths,
		exportHtml: async (outputPath: string) => {
			paths.push(outputPath);
			await writeFile(outputPath, html);
			return outputPath;
		},
	};
}
