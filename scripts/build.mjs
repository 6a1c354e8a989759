// Bundles the CLI into dist/. Ink, React, the LLM layer and the other pure-JS dependencies are
// bundled (with React's production build): resolving and reading the LLM layer's few hundred small
// modules (pi-ai and its typebox) one by one took about a third of `--resume`'s way to the last
// answer on screen; bundled, they are a few chunks. Native modules (better-sqlite3, node-pty) cannot
// be bundled; clipboardy finds its helper binaries next to itself; `@opentelemetry/api` is an
// optional peer of one provider SDK, loaded only when that SDK's tracing is on. Dynamic imports
// become their own chunks, so fast paths never load the UI or the LLM layer.
// A second build bundles the HTML export viewer (browser code, marked + highlight.js) into one
// minified script that the exporter inlines into every exported page.
import { rmSync } from "node:fs";
import { build } from "esbuild";

const external = ["better-sqlite3", "node-pty", "clipboardy", "@opentelemetry/api"];

rmSync("dist", { recursive: true, force: true });
await build({
	// The index's parser thread and the importer's builders are their own entries: a worker is
	// started from a file, next to the chunks.
	entryPoints: {
		main: "source/main.ts",
		"scan-worker": "source/index/scan-worker.ts",
		"import-worker": "source/import/import-worker.ts",
	},
	outdir: "dist",
	bundle: true,
	splitting: true,
	platform: "node",
	target: "node20",
	format: "esm",
	external,
	define: { "process.env.NODE_ENV": '"production"' },
	alias: { "react-devtools-core": "./scripts/devtools-stub.mjs" },
	// Bundled CommonJS (React) calls require(); give ESM chunks one.
	banner: {
		js: "import { createRequire as __xcshRequire } from 'node:module'; const require = __xcshRequire(import.meta.url);",
	},
	sourcemap: true,
	logLevel: "warning",
});

// `xcsh/session`, the entry for scripts (package.json "exports"): one self-contained file, apart
// from the CLI's chunks so its shape does not change with them. Its types come from `npm run
// build:types` (declaration emit, run when the package is packed), not from this script.
await build({
	entryPoints: { session: "source/session/public-api.ts" },
	outdir: "dist",
	bundle: true,
	platform: "node",
	target: "node20",
	format: "esm",
	external,
	sourcemap: true,
	logLevel: "warning",
});

await build({
	entryPoints: ["source/export/html/viewer/main.ts"],
	outfile: "dist/export-viewer.js",
	bundle: true,
	platform: "browser",
	format: "iife",
	target: ["chrome109", "firefox115", "safari16"],
	minify: true,
	// ASCII output: the page's CSP hash covers the script's exact text, whatever the file's encoding.
	charset: "ascii",
	legalComments: "eof",
	logLevel: "warning",
});
