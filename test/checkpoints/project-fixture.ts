import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Writes `files` (relative path → content) under `root`. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(join(root, path, ".."), { recursive: true });
		writeFileSync(join(root, path), content);
	}
}

/** Runs the person's own git in `cwd` (isolated from any GIT_* of the test runner). */
export function userGit(cwd: string, args: string[]): string {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_")));
	return execFileSync("git", args, {
		cwd,
		env: { ...env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
		encoding: "utf8",
	});
}

/** Every file under `dir` with its bytes (hex), to compare a folder before and after. */
export function fingerprint(dir: string): Record<string, string> {
	const out: Record<string, string> = {};
	const walk = (at: string): void => {
		for (const name of readdirSync(at)) {
			const path = join(at, name);
			if (statSync(path).isDirectory()) walk(path);
			else out[relative(dir, path)] = readFileSync(path).toString("hex");
		}
	};
	walk(dir);
	return out;
}
