import { getAgentDir } from "../agent-dir.js";
import { findCustomShare } from "./custom-share.js";
import { tildify } from "./gist-share.js";
import { runProcess } from "./run-process.js";

/** Where /share would upload, looked up the way `shareSession` decides. */
export interface ShareDestinationOptions {
	agentDir?: string | undefined;
	/** Environment for gh (tests put a fake one first on PATH). */
	env?: NodeJS.ProcessEnv | undefined;
	signal?: AbortSignal | undefined;
}

// gh ≥ 2.40 says "Logged in to github.com account octocat (keyring)", older ones "… github.com as octocat (oauth_token)".
const LOGGED_IN = /Logged in to (\S+) (?:account|as) ([^\s(]+)/;

/**
 * The destination for the confirm step: `your share module <path>`, else `a secret gist on
 * <host>/<user>` as `gh auth status` names the account (`a secret GitHub gist` when it names none),
 * or why a gist cannot be made yet.
 */
export async function describeShareDestination(options: ShareDestinationOptions = {}): Promise<string> {
	const module = await findCustomShare(options.agentDir ?? getAgentDir());
	if (module) return `your share module ${tildify(module)}`;
	let status: Awaited<ReturnType<typeof runProcess>>;
	try {
		status = await runProcess("gh", ["auth", "status"], { env: options.env, signal: options.signal });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "a secret GitHub gist (gh is not installed)";
		throw error;
	}
	if (status.code !== 0) return 'a secret GitHub gist (gh is not logged in: run "gh auth login")';
	const account = LOGGED_IN.exec(`${status.stdout}\n${status.stderr}`);
	return account ? `a secret gist on ${account[1]}/${account[2]}` : "a secret GitHub gist";
}
