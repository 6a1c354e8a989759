import { randomBytes } from "node:crypto";
import { chmod, cp, lstat, mkdir, readdir, rename, rm, rmdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { ShadowRepo } from "./shadow-repo.js";
import type { RawChange } from "./tree-diff.js";

/** Reads many blobs in one `git cat-file --batch`: `<blob> blob <size>\n<bytes>\n` per blob. */
async function readBlobs(repo: ShadowRepo, blobs: readonly string[]): Promise<Map<string, Buffer>> {
	const contents = new Map<string, Buffer>();
	if (blobs.length === 0) return contents;
	const out = await repo.readBytes(["cat-file", "--batch"], `${blobs.join("\n")}\n`);
	let at = 0;
	while (at < out.length) {
		const headerEnd = out.indexOf(0x0a, at);
		if (headerEnd < 0) break;
		const [blob, type, size] = out.subarray(at, headerEnd).toString("utf8").split(" ");
		if (type === "missing" || blob === undefined || size === undefined) {
			throw new Error(`the checkpoint store is missing object ${blob ?? "?"}`);
		}
		const start = headerEnd + 1;
		contents.set(blob, out.subarray(start, start + Number(size)));
		at = start + Number(size) + 1;
	}
	return contents;
}

/** Writes a file so it is the old bytes or the new, never half (a temp beside it, renamed over it). */
async function writeAtomically(path: string, bytes: Buffer, executable: boolean): Promise<void> {
	await mkdir(dirname(path), { recursive: true });
	const existing = await lstat(path).catch(() => undefined);
	if (existing?.isDirectory()) await rm(path, { recursive: true, force: true });
	const temp = join(dirname(path), `.${randomBytes(6).toString("hex")}.xcsh-restore`);
	try {
		await writeFile(temp, bytes, { mode: executable ? 0o755 : 0o644 });
		// Keep the permissions a person gave the file, but its executable bit is part of the snapshot.
		if (existing?.isFile()) await chmod(temp, executable ? existing.mode | 0o111 : existing.mode & ~0o111);
		await rename(temp, path);
	} catch (error) {
		await rm(temp, { force: true });
		throw error;
	}
}

/** Puts the files of `changes` (their state in the target tree) into the work tree; returns the paths written. */
export async function writeFiles(repo: ShadowRepo, changes: readonly RawChange[]): Promise<string[]> {
	// A submodule (160000) is its own repository's business: a snapshot never holds its files.
	const wanted = changes.filter((change) => change.status !== "deleted" && change.mode !== "160000");
	const blobs = await readBlobs(repo, [...new Set(wanted.map((change) => change.blob))]);
	for (const change of wanted) {
		const path = join(repo.workTree, change.path);
		const bytes = blobs.get(change.blob)!;
		if (change.mode === "120000") {
			await rm(path, { recursive: true, force: true });
			await mkdir(dirname(path), { recursive: true });
			await symlink(bytes.toString("utf8"), path);
		} else {
			await writeAtomically(path, bytes, change.mode === "100755");
		}
	}
	return wanted.map((change) => change.path);
}

/** A rename, or copy + remove across devices; the folders made on the way are private (the trash is in the agent dir). */
async function move(from: string, to: string): Promise<void> {
	await mkdir(dirname(to), { recursive: true, mode: 0o700 });
	try {
		await rename(from, to);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
		await cp(from, to, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
		await rm(from, { recursive: true, force: true });
	}
}

/** Removes the folders a moved file leaves empty, up to (not including) the project folder. */
async function pruneEmptyParents(root: string, path: string): Promise<void> {
	for (let dir = dirname(path); dir !== root && relative(root, dir).split(sep)[0] !== ".."; dir = dirname(dir)) {
		const names = await readdir(dir).catch(() => undefined);
		if (names === undefined || names.length > 0) return;
		await rmdir(dir).catch(() => undefined);
	}
}

/** Moves project files (paths relative to the project) into `trashDir`, keeping their relative paths. */
export async function moveFilesToTrash(
	workTree: string,
	paths: readonly string[],
	trashDir: string,
): Promise<string[]> {
	const moved: string[] = [];
	for (const path of paths) {
		const from = join(workTree, path);
		if (!(await lstat(from).catch(() => undefined))) continue;
		await move(from, join(trashDir, path));
		await pruneEmptyParents(workTree, from);
		moved.push(path);
	}
	return moved;
}
