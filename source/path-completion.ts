import { type Dirent, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The result of completing a path: text to insert at the cursor and, if ambiguous, the choices. */
export interface PathCompletion {
	readonly insert: string;
	/** Entry names (directories end in `/`) when more than one matched; empty otherwise. */
	readonly candidates: readonly string[];
}

const NO_COMPLETION: PathCompletion = { insert: "", candidates: [] };

/**
 * Completes `token` (the text before the cursor back to whitespace) as a path relative to `cwd`;
 * absolute paths and `~/` work too. One match completes fully (directories get a trailing `/`);
 * several complete their common prefix and are returned as candidates. Dotfiles are offered only
 * when the typed name starts with a dot. Never throws: an unreadable directory completes nothing.
 */
export function completePath(cwd: string, token: string): PathCompletion {
	const slash = token.lastIndexOf("/");
	const dirPart = token.slice(0, slash + 1);
	const base = token.slice(slash + 1);
	const dir = dirPart.startsWith("~/")
		? join(homedir(), dirPart.slice(2))
		: resolve(cwd, dirPart === "" ? "." : dirPart);
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return NO_COMPLETION;
	}
	const names = entries
		.filter((entry) => entry.name.startsWith(base) && (base.startsWith(".") || !entry.name.startsWith(".")))
		.map((entry) => (isDirectory(dir, entry) ? `${entry.name}/` : entry.name))
		.sort();
	const only = names[0];
	if (only === undefined) return NO_COMPLETION;
	if (names.length === 1) return { insert: only.slice(base.length), candidates: [] };
	return { insert: commonPrefix(names).slice(base.length), candidates: names };
}

function isDirectory(dir: string, entry: Dirent): boolean {
	if (entry.isDirectory()) return true;
	if (!entry.isSymbolicLink()) return false;
	try {
		return statSync(join(dir, entry.name)).isDirectory();
	} catch {
		return false;
	}
}

function commonPrefix(names: readonly string[]): string {
	// By code point, so an emoji in a file name is never cut in half.
	let prefix = Array.from(names[0] ?? "");
	for (const name of names) {
		while (!name.startsWith(prefix.join(""))) prefix = prefix.slice(0, -1);
	}
	return prefix.join("");
}
