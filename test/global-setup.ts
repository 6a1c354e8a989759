import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/** End-to-end tests drive the built CLI: build it once before the suite (esbuild, well under a second). */
export default function setup(): void {
	execFileSync(process.execPath, [resolve(import.meta.dirname, "../scripts/build.mjs")], { stdio: "inherit" });
}
