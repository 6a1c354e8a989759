#!/usr/bin/env node
// The published entry: the bundled CLI. `npm ci` builds it (prepare script).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = fileURLToPath(new URL("../dist/main.js", import.meta.url));
if (!existsSync(bundle)) {
	process.stderr.write("xcsh is not built yet: run `npm run build` in the xcsh checkout.\n");
	process.exit(1);
}
await import(bundle);
