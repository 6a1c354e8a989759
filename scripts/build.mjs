// Bundles the CLI into dist/. Ink, React and the other pure-JS dependencies are bundled (with
// React's production build) so the first frame is fast; native modules (better-sqlite3, node-pty)
// cannot be bundled, and the LLM layer stays external because it is only imported after the first
// frame. Dynamic imports become their own chunks, so fast paths never load the UI.
import { rmSync } from "node:fs";
import { build } from "esbuild";

const external = ["better-sqlite3", "node-pty", "@mariozechner/pi-ai", "@mariozechner/pi-agent-core", "clipboardy"];

rmSync("dist", { recursive: true, force: true });
await build({
	entryPoints: { main: "source/main.ts" },
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
