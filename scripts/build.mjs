// Bundles the CLI into dist/. Ink, React, the LLM layer and the other pure-JS dependencies are
// bundled (with React's production build): resolving and reading the LLM layer's few hundred small
// modules (pi-ai and its typebox) one by one took about a third of `--resume`'s way to the last
// answer on screen; bundled, they are a few chunks. Native modules (better-sqlite3, node-pty) cannot
// be bundled; clipboardy finds its helper binaries next to itself; `@opentelemetry/api` is an
// optional peer of one provider SDK, loaded only when that SDK's tracing is on. Dynamic imports
// become their own chunks, so fast paths never load the UI or the LLM layer.
// A second build bundles the HTML export viewer (browser code, marked + highlight.js) into one
// minified script that the exporter inlines into every exported page.
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const external = ["better-sqlite3", "node-pty", "clipboardy", "@opentelemetry/api"];

/**
 * Ink's layout engine (yoga-layout) is WebAssembly inlined as base64, which its loader decodes with
 * `fetch` whenever a global fetch exists: on Node that loads undici (Node's fetch) at every start,
 * 30 to 45 ms of CPU before the first frame, to read a data: URL. Its own synchronous decode is used
 * instead. The build fails if the loader no longer has the two checks, so this never goes stale.
 */
const yogaWithoutFetch = {
	name: "yoga-without-fetch",
	setup(context) {
		context.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
			const source = readFileSync(args.path, "utf8");
			const check = '"function"!=typeof fetch';
			const count = source.split(check).length - 1;
			if (count !== 2) throw new Error(`yoga-layout's wasm loader changed: ${count} fetch checks, expected 2`);
			return { contents: source.replaceAll(check, "true"), loader: "js" };
		});
	},
};

rmSync("dist", { recursive: true, force: true });
await build({
	// The index's parser thread, the importer's builders and a big session's first read are their
	// own entries: a worker is started from a file, next to the chunks. So is the background
	// import's child process (auto import).
	entryPoints: {
		main: "source/main.ts",
		"scan-worker": "source/index/scan-worker.ts",
		"import-worker": "source/import/import-worker.ts",
		"skeleton-worker": "source/session/skeleton-worker.ts",
		"auto-import": "source/import/auto-import-main.ts",
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
	plugins: [yogaWithoutFetch],
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
