import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * How to start a worker thread whose entry is `name` (without extension) beside the module at
 * `callerUrl`: the built .js next to the bundle's chunks, or (tests, benches) the .ts source through
 * tsx. Undefined when neither can be started (the caller does the work on its own thread).
 */
export function workerEntry(callerUrl: string, name: string): string | URL | undefined {
	if (!callerUrl.endsWith(".ts")) {
		const url = new URL(`./${name}.js`, callerUrl);
		return existsSync(fileURLToPath(url)) ? url : undefined;
	}
	try {
		// Loaders are not inherited by worker threads: register tsx inside the worker first.
		const api = pathToFileURL(createRequire(callerUrl).resolve("tsx/esm/api")).href.replace(/\.cjs$/, ".mjs");
		const worker = new URL(`./${name}.ts`, callerUrl).href;
		return `import(${JSON.stringify(api)}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(worker)}))`;
	} catch {
		return undefined;
	}
}
