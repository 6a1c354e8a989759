import { randomBytes } from "node:crypto";
import { copyFile, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ensurePrivateDir } from "../private-files.js";
import { GitCommandError, type GitTarget, git, runGit, runGitScript } from "./git-process.js";
import { DEFAULT_MAX_FILE_BYTES } from "./store-location.js";
import { FILE_CHANGE_ARGS } from "./tree-diff.js";

/** A file a snapshot left out because it is bigger than the limit. */
export interface SkippedFile {
	readonly path: string;
	readonly bytes: number;
}

/** One snapshot of the project's files. */
export interface Snapshot {
	readonly commit: string;
	readonly tree: string;
	/** True when the files differed from the previous snapshot (a new commit was made). */
	readonly changed: boolean;
	readonly skipped: readonly SkippedFile[];
}

/** A scratch snapshot: the tree of the files now, committed nowhere. */
export interface TreeSnapshot {
	readonly tree: string;
	readonly skipped: readonly SkippedFile[];
}

const INDEXES = "xcsh-indexes";
const REF_PREFIX = "refs/xcsh/sessions/";

/** A session id as a file and ref name: only the characters git and every file system accept. */
function safeName(sessionId: string): string {
	const cleaned = sessionId.replace(/[^A-Za-z0-9_-]/g, "_");
	return cleaned.length > 0 ? cleaned : "_";
}

async function exists(path: string): Promise<boolean> {
	return lstat(path).then(
		() => true,
		() => false,
	);
}

/** Where the project's own `info/exclude` is: `.git/info/exclude`, or through a `.git` file (worktrees). */
async function projectExcludeFile(workTree: string): Promise<string | undefined> {
	const dotGit = join(workTree, ".git");
	const info = await stat(dotGit).catch(() => undefined);
	if (!info) return undefined;
	if (info.isDirectory()) return join(dotGit, "info", "exclude");
	const pointer = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, "utf8").catch(() => ""));
	if (!pointer?.[1]) return undefined;
	const gitDir = resolve(workTree, pointer[1].trim());
	// A linked worktree's excludes live in the common directory.
	const common = (await readFile(join(gitDir, "commondir"), "utf8").catch(() => "")).trim();
	return join(common ? resolve(gitDir, common) : gitDir, "info", "exclude");
}

/**
 * The shadow git repository of one project, under the agent dir: snapshots of the project's files
 * as commits (write-tree + commit-tree), one index and one ref per session, never touching the
 * project's own `.git`.
 */
export class ShadowRepo {
	readonly gitDir: string;
	readonly workTree: string;
	readonly maxFileBytes: number;
	#queue: Promise<unknown> = Promise.resolve();
	/** Per session: its ref's commit and tree as this process last wrote or read them (only it writes them). */
	readonly #tips = new Map<string, { commit: string; tree: string }>();
	/** Per index file: the tree its last write-tree gave (nothing listed as changed → the same tree). */
	readonly #trees = new Map<string, string>();

	private constructor(gitDir: string, workTree: string, maxFileBytes: number) {
		this.gitDir = gitDir;
		this.workTree = workTree;
		this.maxFileBytes = maxFileBytes;
	}

	/** Opens (creating it if needed) the shadow repository at `gitDir` for the project at `workTree`. */
	static async open(gitDir: string, workTree: string, options: { maxFileBytes?: number } = {}): Promise<ShadowRepo> {
		const repo = new ShadowRepo(resolve(gitDir), resolve(workTree), options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
		await repo.#initialise();
		return repo;
	}

	/** A bare repository made in a temp folder and renamed into place: a kill mid-init leaves no half repository. */
	async #initialise(): Promise<void> {
		if (await exists(join(this.gitDir, "HEAD"))) return;
		await ensurePrivateDir(dirname(this.gitDir));
		const temp = `${this.gitDir}.init-${randomBytes(4).toString("hex")}`;
		try {
			// It holds copies of the project's files: private, like everything in the agent dir
			// (git keeps files 0600/0400 and folders 0700 from here on); no template, so no sample hooks.
			await git({ gitDir: temp }, ["init", "-q", "--bare", "--shared=0600", "--template=", temp]);
			await mkdir(join(temp, INDEXES), { recursive: true, mode: 0o700 });
			await rename(temp, this.gitDir);
		} catch (error) {
			await rm(temp, { recursive: true, force: true });
			// Another process made it first: theirs is as good as ours.
			if (!(await exists(join(this.gitDir, "HEAD")))) throw error;
		}
	}

	#target(indexFile?: string): GitTarget {
		return indexFile === undefined
			? { gitDir: this.gitDir, workTree: this.workTree }
			: { gitDir: this.gitDir, workTree: this.workTree, indexFile };
	}

	/** Runs store operations one at a time in this process (they share an index). */
	#serial<T>(work: () => Promise<T>): Promise<T> {
		const next = this.#queue.then(work, work);
		this.#queue = next.catch(() => undefined);
		return next;
	}

	/** The ref that keeps a session's snapshots reachable (never garbage-collected). */
	refOf(sessionId: string): string {
		return `${REF_PREFIX}${safeName(sessionId)}`;
	}

	#indexOf(sessionId: string): string {
		return join(this.gitDir, INDEXES, safeName(sessionId));
	}

	/**
	 * Takes a snapshot for a session: a new commit on the session's ref when the files differ from
	 * its last snapshot, else that snapshot again. With `diffFrom` (a tree) the result also holds
	 * `git diff-tree` of it against the new tree, in FILE_CHANGE_ARGS's form, from the same process.
	 */
	snapshot(
		sessionId: string,
		message: string,
		options: { diffFrom?: string } = {},
	): Promise<Snapshot & { diff?: string }> {
		return this.#serial(async () => {
			const indexFile = this.#indexOf(sessionId);
			await this.#prepareIndex(indexFile);
			const changes = await this.#listChanges(indexFile);
			const tip = await this.#tipOf(sessionId);
			const known = changes.stage.length === 0 ? this.#trees.get(indexFile) : undefined;
			if (known !== undefined && tip?.tree === known) {
				const diff = options.diffFrom === undefined ? undefined : await this.#diff(options.diffFrom, known);
				return {
					commit: tip.commit,
					tree: known,
					changed: false,
					skipped: changes.skipped,
					...(diff === undefined ? {} : { diff }),
				};
			}
			const written = await this.#write(indexFile, changes.stage, {
				XCSH_MESSAGE: message,
				XCSH_TIP_TREE: tip?.tree ?? "",
				XCSH_PARENT: tip?.commit ?? "",
				XCSH_DIFF_FROM: options.diffFrom ?? "",
			});
			const diff = options.diffFrom === undefined ? undefined : written.rest;
			const result = { skipped: changes.skipped, ...(diff === undefined ? {} : { diff }) };
			if (tip !== undefined && written.commit === "")
				return { commit: tip.commit, tree: written.tree, changed: false, ...result };
			await this.#setRef(sessionId, written.commit);
			this.#tips.set(sessionId, { commit: written.commit, tree: written.tree });
			return { commit: written.commit, tree: written.tree, changed: true, ...result };
		});
	}

	async #diff(from: string, to: string): Promise<string> {
		return from === to ? "" : this.read([...FILE_CHANGE_ARGS, from, to]);
	}

	/**
	 * Points the session's ref at `commit`: the loose ref file written beside and renamed over, as
	 * `git update-ref` does, without a process (only this session, one snapshot at a time, writes it).
	 */
	async #setRef(sessionId: string, commit: string): Promise<void> {
		const path = join(this.gitDir, this.refOf(sessionId));
		// A kill between a lock and its rename (ours or an older update-ref's) leaves the lock behind.
		await rm(`${path}.lock`, { force: true });
		await mkdir(dirname(path), { recursive: true, mode: 0o700 });
		const temp = `${path}.lock`;
		await writeFile(temp, `${commit}\n`, { mode: 0o600 });
		await rename(temp, path);
	}

	/** The tree of the files as they are now, recorded nowhere (for a diff or a dry run). */
	scratchTree(sessionId: string | undefined): Promise<TreeSnapshot> {
		return this.#serial(async () => {
			const scratch = join(this.gitDir, INDEXES, `scratch-${process.pid}-${randomBytes(4).toString("hex")}`);
			try {
				const seed = sessionId === undefined ? undefined : this.#indexOf(sessionId);
				await this.#seedIndex(scratch, seed);
				const changes = await this.#listChanges(scratch);
				const { tree } = await this.#write(scratch, changes.stage, {});
				return { tree, skipped: changes.skipped };
			} finally {
				this.#trees.delete(scratch);
				await rm(scratch, { force: true });
				await rm(`${scratch}.lock`, { force: true });
			}
		});
	}

	async #tipOf(sessionId: string): Promise<{ commit: string; tree: string } | undefined> {
		const known = this.#tips.get(sessionId);
		if (known) return known;
		const commit = await this.resolveCommit(this.refOf(sessionId));
		if (commit === undefined) return undefined;
		const tip = { commit, tree: await this.treeOf(commit) };
		this.#tips.set(sessionId, tip);
		return tip;
	}

	/** A commit id for `rev` (a ref, a commit, a prefix), or undefined when there is none. */
	async resolveCommit(rev: string): Promise<string | undefined> {
		try {
			return (await git(this.#target(), ["rev-parse", "-q", "--verify", `${rev}^{commit}`])).trim();
		} catch {
			return undefined;
		}
	}

	/** The tree id of a commit. */
	async treeOf(commit: string): Promise<string> {
		return (await git(this.#target(), ["rev-parse", `${commit}^{tree}`])).trim();
	}

	/** Runs a read-only git command in this repository (diff-tree, cat-file, diff). */
	read(args: readonly string[], input?: string): Promise<string> {
		return git(this.#target(), args, input);
	}

	/** Runs a git command and returns raw bytes (blob contents). */
	async readBytes(args: readonly string[], input?: string): Promise<Buffer> {
		const result = await runGit(this.#target(), args, input);
		if (result.code !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr.trim()}`);
		return result.stdout;
	}

	/**
	 * A session's index after a kill: its lock is stale (only the process holding the session
	 * writes this index, one operation at a time). A session with no index yet starts from the
	 * newest index of the project, so its first snapshot re-reads only what changed.
	 */
	async #prepareIndex(indexFile: string): Promise<void> {
		await rm(`${indexFile}.lock`, { force: true });
		if (await exists(indexFile)) return;
		await this.#seedIndex(indexFile, undefined);
	}

	async #seedIndex(target: string, preferred: string | undefined): Promise<void> {
		await mkdir(dirname(target), { recursive: true, mode: 0o700 });
		const source = preferred !== undefined && (await exists(preferred)) ? preferred : await this.#newestIndex();
		if (source === undefined) return;
		const temp = `${target}.seed-${randomBytes(4).toString("hex")}`;
		try {
			await copyFile(source, temp);
			await rename(temp, target);
		} catch {
			// Another snapshot is rewriting that index: start empty instead (slower, as correct).
			await rm(temp, { force: true });
		}
	}

	async #newestIndex(): Promise<string | undefined> {
		const dir = join(this.gitDir, INDEXES);
		let newest: { path: string; mtime: number } | undefined;
		for (const name of await readdir(dir).catch(() => [] as string[])) {
			if (name.includes(".") || name.startsWith("scratch-")) continue;
			const path = join(dir, name);
			const info = await stat(path).catch(() => undefined);
			if (info?.isFile() && (newest === undefined || info.mtimeMs > newest.mtime))
				newest = { path, mtime: info.mtimeMs };
		}
		return newest?.path;
	}

	/** The project's `info/exclude` is honoured by copying it into ours (git reads only its own). */
	async #syncExcludes(): Promise<void> {
		const from = await projectExcludeFile(this.workTree);
		const wanted = from === undefined ? "" : await readFile(from, "utf8").catch(() => "");
		const ours = join(this.gitDir, "info", "exclude");
		const current = await readFile(ours, "utf8").catch(() => undefined);
		if (current === wanted) return;
		await mkdir(dirname(ours), { recursive: true, mode: 0o700 });
		await writeFile(ours, wanted, { mode: 0o600 });
	}

	/**
	 * What must be staged for the index to match the files on disk. Only what git lists as changed
	 * or untracked is looked at (the index's stat data answers for the rest), the two lists walked
	 * by two processes at once, so a 10,000-file project with one changed file costs about one
	 * `git status`. Paths that must go although something is there (a folder now, or a file over
	 * the size limit) are removed here; everything else is left for `#write`.
	 */
	async #listChanges(indexFile: string): Promise<{ stage: string[]; skipped: SkippedFile[] }> {
		await this.#syncExcludes();
		const target = this.#target(indexFile);
		const [modified, others] = await Promise.all([
			git(target, ["ls-files", "-z", "-m"]),
			git(target, ["ls-files", "-z", "-o", "--exclude-standard"]),
		]);
		const stage: string[] = [];
		const removals: string[] = [];
		const skipped: SkippedFile[] = [];
		const look = async (path: string, tracked: boolean): Promise<void> => {
			const info = await lstat(join(this.workTree, path)).catch(() => undefined);
			if (!info) {
				// Gone: `update-index --remove` drops a tracked path that is missing.
				if (tracked) stage.push(path);
			} else if (info.isDirectory()) {
				if (tracked) removals.push(path);
			} else if (info.isFile() && info.size > this.maxFileBytes) {
				skipped.push({ path, bytes: info.size });
				if (tracked) removals.push(path);
			} else {
				stage.push(path);
			}
		};
		for (const path of modified.split("\0")) if (path !== "") await look(path, true);
		// A nested repository is listed as its folder: its files are its own git's business.
		for (const path of others.split("\0")) if (path !== "" && !path.endsWith("/")) await look(path, false);
		if (removals.length > 0) {
			await git(target, ["update-index", "-z", "--force-remove", "--stdin"], `${removals.join("\0")}\0`);
			this.#trees.delete(indexFile);
		}
		return { stage, skipped };
	}

	/**
	 * Stages `paths`, writes the index's tree and, given XCSH_MESSAGE, commits it when it differs
	 * from XCSH_TIP_TREE (then diffs it from XCSH_DIFF_FROM): one `sh` running the git commands.
	 */
	async #write(
		indexFile: string,
		paths: readonly string[],
		vars: Readonly<Record<string, string>>,
	): Promise<{ tree: string; commit: string; rest: string }> {
		const stage = paths.length > 0;
		const result = await runGitScript(
			this.#target(indexFile),
			WRITE_SCRIPT,
			{ ...vars, XCSH_STAGE: stage ? "1" : "" },
			stage ? `${paths.join("\0")}\0` : undefined,
		);
		if (result.code !== 0) throw new GitCommandError(["write-tree"], result.code, result.stderr);
		const text = result.stdout.toString("utf8");
		const first = text.indexOf("\n");
		const second = text.indexOf("\n", first + 1);
		const tree = text.slice(0, first);
		if (first < 0 || second < 0 || !/^[0-9a-f]{40,64}$/.test(tree))
			throw new GitCommandError(["write-tree"], result.code, `unexpected output: ${text.slice(0, 80)}`);
		this.#trees.set(indexFile, tree);
		return { tree, commit: text.slice(first + 1, second), rest: text.slice(second + 1) };
	}
}

/** Stage, write the tree, commit it if new, diff it: see `#write`. `"$@"` is the fixed git settings. */
const WRITE_SCRIPT = `set -e
if [ -n "$XCSH_STAGE" ]; then git "$@" update-index -z --add --replace --remove --stdin; fi
tree=$(git "$@" write-tree)
echo "$tree"
if [ -n "$XCSH_MESSAGE" ] && [ "$tree" != "$XCSH_TIP_TREE" ]; then
	if [ -n "$XCSH_PARENT" ]; then git "$@" commit-tree "$tree" -p "$XCSH_PARENT" -m "$XCSH_MESSAGE"
	else git "$@" commit-tree "$tree" -m "$XCSH_MESSAGE"; fi
else echo; fi
if [ -n "$XCSH_DIFF_FROM" ] && [ "$tree" != "$XCSH_DIFF_FROM" ]; then
	git "$@" ${FILE_CHANGE_ARGS.join(" ")} "$XCSH_DIFF_FROM" "$tree"
fi
`;
