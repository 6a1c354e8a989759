import { realpath, stat } from "node:fs/promises";
import { replaceAtomically } from "../../atomic-replace.js";

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
	return replaceAtomically(target, data, mode ?? 0o666, mode !== undefined);
}
