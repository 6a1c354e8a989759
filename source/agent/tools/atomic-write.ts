import { randomBytes } from "node:crypto";
import { open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes `data` to `path` so readers see the old file or the new one, never half of either:
 * a temp file in the same directory (rename is only atomic within one filesystem), fsynced, then renamed.
 */
export async function atomicWriteFile(path: string, data: string | Uint8Array): Promise<void> {
	// Writing through a symlink must replace its target, not the link itself.
	const target = await realpath(path).catch(() => path);
	const mode = await stat(target).then(
		(s) => s.mode & 0o7777,
		() => undefined,
	);
	const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	const handle = await open(temp, "wx", mode ?? 0o666);
	try {
		try {
			await handle.writeFile(data);
			// open() applies the umask; an existing file keeps its exact permissions.
			if (mode !== undefined) await handle.chmod(mode);
			await handle.sync();
		} finally {
			await handle.close();
		}
		await rename(temp, target);
	} catch (error) {
		await unlink(temp).catch(() => undefined);
		throw error;
	}
}
