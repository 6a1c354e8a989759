import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Replaces `target` so readers see the old bytes or the new ones, never half: a temp file beside it
 * (`.<name>.<random>.tmp`; rename is only atomic within one filesystem), fsynced, then renamed over
 * it. `exactMode`: the file gets `mode` as it is, past the umask (an existing file keeps its permissions).
 */
export async function replaceAtomically(
	target: string,
	data: string | Uint8Array,
	mode: number,
	exactMode = false,
): Promise<void> {
	const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	// Outside the try: a temp that could not be made is not ours to remove.
	const handle = await open(temp, "wx", mode);
	try {
		try {
			await handle.writeFile(data);
			if (exactMode) await handle.chmod(mode);
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
