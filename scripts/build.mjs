// Bundles the CLI into dist/main.js. Dependencies stay external: native modules (better-sqlite3,
// node-pty) cannot be bundled, and the rest load lazily only on the paths that need them.
import { build } from "esbuild";

await build({
	entryPoints: ["source/main.ts"],
	outfile: "dist/main.js",
	bundle: true,
	platform: "node",
	target: "node20",
	format: "esm",
	packages: "external",
	sourcemap: true,
	logLevel: "warning",
});
