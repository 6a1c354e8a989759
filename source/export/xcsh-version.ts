import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

let cached: string | undefined;

/**
 * xcsh's version from its package.json, found through the package's own name (its "exports" list
 * package.json), so it works from the sources and from the bundle alike; "unknown" if unreadable.
 */
export function xcshVersion(): string {
	if (cached !== undefined) return cached;
	try {
		const path = createRequire(import.meta.url).resolve("xcsh/package.json");
		const version = (JSON.parse(readFileSync(path, "utf8")) as { version?: unknown }).version;
		cached = typeof version === "string" ? version : "unknown";
	} catch {
		cached = "unknown";
	}
	return cached;
}
