import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/**
 * Where the bundled viewer can be, relative to this module: from source (vitest, tsx) it is
 * source/export/html/ → dist/export-viewer.js; inside the bundled CLI it sits next to the chunk.
 */
const CANDIDATES = ["../../../dist/export-viewer.js", "./export-viewer.js"];

let cached: string | undefined;

/**
 * Inline script text must not contain `</script` (it would end the element) nor `<script` followed
 * by a space, `/` or `>` (after a `<!--` the tokenizer would then skip the real `</script>`).
 * esbuild already escapes `</script`; bundled grammars contain `<!--`, which is harmless without these.
 */
function assertInlineSafe(code: string, path: string): void {
	if (/<\/script|<script[\t\n\f\r />]/i.test(code)) {
		throw new Error(`The export viewer ${path} cannot be inlined: it contains a <script> tag sequence`);
	}
}

/** The bundled viewer's source (read once per process). Throws a clear error when it was never built. */
export async function loadViewerScript(): Promise<string> {
	if (cached !== undefined) return cached;
	const tried: string[] = [];
	for (const candidate of CANDIDATES) {
		const path = fileURLToPath(new URL(candidate, import.meta.url));
		tried.push(path);
		let code: string;
		try {
			code = await readFile(path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
			throw error;
		}
		// The CSP hash covers the exact text the HTML parser sees, which normalises line endings.
		code = code.replace(/\r\n?/g, "\n").trimEnd();
		assertInlineSafe(code, path);
		cached = code;
		return code;
	}
	throw new Error(`The HTML export viewer is not built (looked for ${tried.join(", ")}): run \`npm run build\` first`);
}
