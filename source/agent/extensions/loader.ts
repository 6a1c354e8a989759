import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { getAgentDir } from "../../agent-dir.js";
import { ExtensionRunner } from "./runner.js";
import type { ExtensionFactory } from "./types.js";

const MODULE_SUFFIXES = [".js", ".mjs"];

/** The extension modules in a directory: `*.js` / `*.mjs` files and folders with an `index.js` / `index.mjs`. */
export function findExtensionModules(dir: string): string[] {
	if (!existsSync(dir)) return [];
	const found: string[] = [];
	for (const name of readdirSync(dir).sort()) {
		const path = join(dir, name);
		if (MODULE_SUFFIXES.some((s) => name.endsWith(s)) && statSync(path).isFile()) found.push(path);
		else if (statSync(path).isDirectory()) {
			const index = MODULE_SUFFIXES.map((s) => join(path, `index${s}`)).find((p) => existsSync(p));
			if (index) found.push(index);
		}
	}
	return found;
}

/**
 * Loads extensions from `<agentDir>/extensions/` and the given paths (`--extension`). A module
 * that fails to load or has no default-exported function is reported on the runner, never fatal.
 */
export async function loadExtensions(
	extraPaths: readonly string[] = [],
	cwd = process.cwd(),
): Promise<ExtensionRunner> {
	const runner = new ExtensionRunner();
	const paths = [...findExtensionModules(join(getAgentDir(), "extensions")), ...extraPaths.map((p) => resolve(cwd, p))];
	for (const path of paths) {
		const name =
			basename(path) === "index.js" || basename(path) === "index.mjs" ? basename(resolve(path, "..")) : basename(path);
		let factory: unknown;
		try {
			const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
			factory = module.default;
		} catch (error) {
			runner.report({
				extension: name,
				message: `failed to load ${path}: ${error instanceof Error ? error.message : String(error)}`,
			});
			continue;
		}
		if (typeof factory !== "function") {
			runner.report({ extension: name, message: `${path} has no default-exported function` });
			continue;
		}
		await runner.add(name, factory as ExtensionFactory);
	}
	return runner;
}
