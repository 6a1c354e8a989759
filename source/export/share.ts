import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import { log } from "../logger.js";
import { type CustomShareResult, type LoadedCustomShare, loadCustomShare } from "./custom-share.js";
import { createGist } from "./gist-share.js";
import { abortError, isAbortError } from "./run-process.js";

/** What /share produced; opening the URL is the caller's job. */
export type ShareResult =
	| { kind: "shared"; url?: string; previewUrl?: string; gistUrl?: string; message?: string }
	| { kind: "cancelled" };

/** The long-running step /share is in, for the UI's activity line. */
export type SharePhase = "Sharing" | "Creating gist";

/** What shareSession needs; the exporter is injected so the share flow does not depend on it. */
export interface ShareOptions {
	/** Writes the session's HTML to `outputPath` and returns the written path. */
	exportHtml: (outputPath: string) => Promise<string>;
	signal?: AbortSignal | undefined;
	onPhase?: ((phase: SharePhase) => void) | undefined;
	agentDir?: string | undefined;
	/** Environment for gh (tests put a fake one first on PATH). */
	env?: NodeJS.ProcessEnv | undefined;
}

const CANCELLED: ShareResult = { kind: "cancelled" };

/**
 * Shares the session: exports it to a temp HTML file, then hands it to the user's share module or,
 * only when there is none, to a secret GitHub gist. Throws with a user-facing message; the temp file
 * is removed however it ends.
 */
export async function shareSession(options: ShareOptions): Promise<ShareResult> {
	const { signal } = options;
	const requested = join(tmpdir(), `${randomBytes(8).toString("hex")}.html`);
	const written = new Set([requested]);
	try {
		if (signal?.aborted) return CANCELLED;
		const htmlPath = await options.exportHtml(requested);
		written.add(htmlPath);
		if (signal?.aborted) return CANCELLED;

		// A module that exists but fails to load is an error, never a silent fallback to a public upload.
		const custom = await loadCustomShare(options.agentDir ?? getAgentDir());
		if (custom) {
			options.onPhase?.("Sharing");
			const result = await runHandler(custom, htmlPath, signal);
			return signal?.aborted ? CANCELLED : interpret(result);
		}

		options.onPhase?.("Creating gist");
		const gist = await createGist(htmlPath, { signal, env: options.env, agentDir: options.agentDir });
		if (signal?.aborted) return CANCELLED;
		return { kind: "shared", previewUrl: gist.previewUrl, gistUrl: gist.gistUrl };
	} catch (error) {
		if (signal?.aborted || isAbortError(error)) return CANCELLED;
		throw error;
	} finally {
		await Promise.all(
			[...written].map((path) =>
				rm(path, { force: true }).catch((error: unknown) => log.warn(`share: cannot remove ${path}: ${String(error)}`)),
			),
		);
	}
}

async function runHandler(
	custom: LoadedCustomShare,
	htmlPath: string,
	signal: AbortSignal | undefined,
): Promise<CustomShareResult | string | undefined> {
	const running = (async () => {
		try {
			return await custom.handler(htmlPath, signal);
		} catch (error) {
			if (signal?.aborted || isAbortError(error)) throw abortError();
			throw new Error(`Share module ${custom.path} failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	})();
	if (!signal) return running;
	// A handler may ignore the signal; the share still ends at once and whatever it settles to later is dropped.
	return new Promise((resolve, reject) => {
		const onAbort = () => reject(abortError());
		signal.addEventListener("abort", onAbort, { once: true });
		running.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
	});
}

function interpret(result: CustomShareResult | string | undefined): ShareResult {
	if (typeof result === "string")
		return result ? { kind: "shared", url: result } : { kind: "shared", message: "Session shared" };
	if (!result || typeof result !== "object") return { kind: "shared", message: "Session shared" };
	const url = typeof result.url === "string" && result.url ? result.url : undefined;
	const message = typeof result.message === "string" && result.message ? result.message : undefined;
	if (!url && !message) return { kind: "shared", message: "Session shared" };
	return { kind: "shared", ...(url ? { url } : {}), ...(message ? { message } : {}) };
}
