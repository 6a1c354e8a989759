import { randomBytes } from "node:crypto";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { getAgentDir } from "../agent-dir.js";
import { log } from "../logger.js";

/** What a share module may return besides a bare URL string. */
export interface CustomShareResult {
	url?: string;
	message?: string;
}

/** A share module's default export; the signal is xcsh's addition so a handler can stop its upload. */
export type CustomShareHandler = (
	htmlPath: string,
	signal?: AbortSignal,
) => Promise<CustomShareResult | string | undefined>;

/** A share module found in the agent dir and loaded. */
export interface LoadedCustomShare {
	kind: "loaded";
	path: string;
	handler: CustomShareHandler;
}

/** The share module names, in the order they are looked for. */
export const CUSTOM_SHARE_FILES = ["share.ts", "share.js", "share.mjs"] as const;

/** The first share module that exists in `agentDir`, if any. */
export async function findCustomShare(agentDir: string = getAgentDir()): Promise<string | undefined> {
	for (const name of CUSTOM_SHARE_FILES) {
		const path = join(agentDir, name);
		try {
			await stat(path);
			return path;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			// Anything but "not there" (EACCES…) means the user did put a module here: let loading report it.
			if (code !== "ENOENT" && code !== "ENOTDIR") return path;
		}
	}
	return undefined;
}

/**
 * Loads the user's share module (share.ts, share.js or share.mjs in the agent dir). Undefined when
 * there is none; throws `Failed to load share module <path>: <reason>` when one exists but is unusable.
 */
export async function loadCustomShare(agentDir: string = getAgentDir()): Promise<LoadedCustomShare | undefined> {
	const path = await findCustomShare(agentDir);
	if (!path) return undefined;
	let exported: unknown;
	try {
		exported = (await importShareModule(path)).default;
	} catch (error) {
		throw new Error(`Failed to load share module ${path}: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (typeof exported !== "function")
		throw new Error(`Failed to load share module ${path}: it has no default-exported function`);
	return { kind: "loaded", path, handler: exported as CustomShareHandler };
}

let loads = 0;

async function importShareModule(path: string): Promise<{ default?: unknown }> {
	if (!path.endsWith(".ts")) {
		// A fresh query defeats the ESM cache so an edited module is picked up without a restart (mtime
		// is too coarse on some file systems); one small module instance per /share is the price.
		return import(`${pathToFileURL(path).href}?load=${++loads}`);
	}
	// Node 20 cannot import TypeScript: strip the types with esbuild and import the result. The copy
	// lives in the temp dir, so relative imports inside share.ts do not resolve (bare and node: do).
	const { transform } = await import("esbuild");
	const { code } = await transform(await readFile(path, "utf8"), { loader: "ts", format: "esm", sourcefile: path });
	const compiled = join(tmpdir(), `xcsh-share-module-${randomBytes(6).toString("hex")}.mjs`);
	await writeFile(compiled, code);
	try {
		return await import(pathToFileURL(compiled).href);
	} finally {
		await rm(compiled, { force: true }).catch((error: unknown) => log.warn(`custom-share: ${String(error)}`));
	}
}
