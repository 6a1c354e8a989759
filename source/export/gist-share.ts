import { homedir } from "node:os";
import { join, sep } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import { abortError, type ProcessOutput, runProcess } from "./run-process.js";

/** A created gist and the gistpreview.github.io page that renders its HTML. */
export interface GistShare {
	gistUrl: string;
	gistId: string;
	previewUrl: string;
}

/** Options for createGist. */
export interface CreateGistOptions {
	signal?: AbortSignal | undefined;
	env?: NodeJS.ProcessEnv | undefined;
	/** Named in the "not installed" hint; defaults to the agent dir. */
	agentDir?: string | undefined;
}

/** `path` with the home directory shown as `~`. */
export function tildify(path: string, home: string = homedir()): string {
	if (path === home) return "~";
	return path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

/** The last gist URL in gh's output, with its id (the final path segment). */
export function parseGistUrl(output: string): { gistUrl: string; gistId: string } | undefined {
	const urls = output.match(/https:\/\/gist\.github\.com\/[^\s"'<>]+/g);
	const gistUrl = urls?.at(-1)?.replace(/\/+$/, "");
	const gistId = gistUrl?.split("/").at(-1);
	return gistUrl && gistId ? { gistUrl, gistId } : undefined;
}

// gh prints progress ("- Creating gist x.html") to stderr before the actual error line.
function errorLine(result: ProcessOutput): string {
	const lines = result.stderr
		.split("\n")
		.map((line) => line.trim())
		.filter(Boolean);
	return lines.find((line) => !line.startsWith("- ")) ?? lines[0] ?? `exit code ${result.code ?? result.signal}`;
}

async function gh(args: string[], options: CreateGistOptions): Promise<ProcessOutput> {
	try {
		return await runProcess("gh", args, { signal: options.signal, env: options.env });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
		const module = tildify(join(options.agentDir ?? getAgentDir(), "share.js"));
		throw new Error(`GitHub CLI (gh) is not installed. Install it, or add a share module at ${module}`);
	}
}

/** Uploads the HTML file as a secret gist with the GitHub CLI; the signal kills gh. */
export async function createGist(htmlPath: string, options: CreateGistOptions = {}): Promise<GistShare> {
	const auth = await gh(["auth", "status"], options);
	if (auth.code !== 0) throw new Error('GitHub CLI is not logged in. Run "gh auth login", then /share again.');
	if (options.signal?.aborted) throw abortError();
	const created = await gh(["gist", "create", "--public=false", htmlPath], options);
	if (created.code !== 0) throw new Error(`gh gist create failed: ${errorLine(created)}`);
	const parsed = parseGistUrl(created.stdout);
	if (!parsed) throw new Error("gh gist create failed: no gist URL in its output");
	return { ...parsed, previewUrl: `https://gistpreview.github.io/?${parsed.gistId}` };
}
