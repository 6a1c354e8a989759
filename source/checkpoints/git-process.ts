import { spawn } from "node:child_process";
import { dirname } from "node:path";

/** Where one git command runs: the shadow repository, the project as its work tree, and an index. */
export interface GitTarget {
	readonly gitDir: string;
	/** The project; absent for commands on the repository alone (init). */
	readonly workTree?: string;
	/** The index file (each session has its own, so two sessions of a project never share a lock). */
	readonly indexFile?: string;
}

/** What a git command printed and how it ended. */
export interface GitResult {
	readonly code: number;
	readonly stdout: Buffer;
	readonly stderr: string;
}

/** Thrown when git cannot be started at all (not on PATH). */
export class GitMissingError extends Error {
	constructor() {
		super("git was not found on PATH");
		this.name = "GitMissingError";
	}
}

/** Thrown when a git command exits non-zero where success was required. */
export class GitCommandError extends Error {
	constructor(
		readonly args: readonly string[],
		readonly code: number,
		readonly stderr: string,
	) {
		super(`git ${args[0] ?? ""} failed (exit ${code}): ${stderr.trim().split("\n")[0] ?? ""}`);
		this.name = "GitCommandError";
	}
}

/**
 * The environment for the shadow repository: every inherited `GIT_*` variable is dropped (a hook
 * or a test runner inside some repository sets GIT_DIR / GIT_INDEX_FILE, which would point our
 * commands at the person's own repository), then ours are set.
 */
function gitEnv(target: GitTarget): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
	env.GIT_DIR = target.gitDir;
	if (target.workTree) env.GIT_WORK_TREE = target.workTree;
	if (target.indexFile) env.GIT_INDEX_FILE = target.indexFile;
	// Paths come from the file system, never from a person: no glob or magic in them.
	env.GIT_LITERAL_PATHSPECS = "1";
	env.GIT_TERMINAL_PROMPT = "0";
	env.GIT_OPTIONAL_LOCKS = "0";
	env.GIT_AUTHOR_NAME = "xcsh";
	env.GIT_AUTHOR_EMAIL = "xcsh@localhost";
	env.GIT_COMMITTER_NAME = "xcsh";
	env.GIT_COMMITTER_EMAIL = "xcsh@localhost";
	env.LC_ALL = "C";
	return env;
}

/** Settings passed on every call, so a person's global git config cannot change what a snapshot holds. */
const FIXED_CONFIG = [
	"-c",
	"core.autocrlf=false",
	"-c",
	"core.safecrlf=false",
	"-c",
	"core.quotePath=false",
	"-c",
	"core.fsmonitor=false",
	"-c",
	"core.untrackedCache=true",
	"-c",
	"advice.addEmbeddedRepo=false",
	"-c",
	"gc.auto=0",
	// Path-compressed entries: a 10,000-file index is about half the bytes to write per snapshot.
	"-c",
	"index.version=4",
	"-c",
	"commit.gpgSign=false",
];

/** Runs `git <args>` against `target`; resolves with its output whatever the exit code. */
export function runGit(target: GitTarget, args: readonly string[], input?: string | Buffer): Promise<GitResult> {
	return run("git", [...FIXED_CONFIG, ...args], target, gitEnv(target), input);
}

/**
 * Runs a `sh` script of several git commands against `target`, in one process started from here:
 * from a big Node process each spawn costs milliseconds, from `sh` far less. In the script `"$@"`
 * holds the fixed settings (`git "$@" write-tree`); `vars` are added to its environment, so no
 * value is ever spliced into the script's text.
 */
export function runGitScript(
	target: GitTarget,
	script: string,
	vars: Readonly<Record<string, string>>,
	input?: string | Buffer,
): Promise<GitResult> {
	return run("sh", ["-c", script, "xcsh-git", ...FIXED_CONFIG], target, { ...gitEnv(target), ...vars }, input);
}

function run(
	command: string,
	args: readonly string[],
	target: GitTarget,
	env: NodeJS.ProcessEnv,
	input: string | Buffer | undefined,
): Promise<GitResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: target.workTree ?? dirname(target.gitDir),
			env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
		child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
		child.on("error", (error: NodeJS.ErrnoException) =>
			reject(error.code === "ENOENT" ? new GitMissingError() : error),
		);
		child.on("close", (code) =>
			resolve({ code: code ?? 128, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }),
		);
		// A git that exits before reading its input must not crash us with EPIPE.
		child.stdin.on("error", () => undefined);
		child.stdin.end(input ?? "");
	});
}

/** Runs git and returns its stdout as text; throws GitCommandError on a non-zero exit. */
export async function git(target: GitTarget, args: readonly string[], input?: string | Buffer): Promise<string> {
	const result = await runGit(target, args, input);
	if (result.code !== 0) throw new GitCommandError(args, result.code, result.stderr);
	return result.stdout.toString("utf8");
}

let available: Promise<boolean> | undefined;

/** Whether a `git` can be started from PATH (asked once per process; PATH does not change under us). */
export function gitAvailable(): Promise<boolean> {
	available ??= new Promise((resolve) => {
		const child = spawn("git", ["--version"], { stdio: "ignore" });
		child.on("error", () => resolve(false));
		child.on("close", (code) => resolve(code === 0));
	});
	return available;
}

/** The one line said when checkpoints are off for want of git. */
export const GIT_MISSING_NOTICE = "checkpoints are off: git was not found on PATH";
