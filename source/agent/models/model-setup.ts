import { homedir } from "node:os";
import { join, sep } from "node:path";
import { getAgentDir } from "../../agent-dir.js";

/** `path` with the home directory shortened to `~`, as users type it. */
export function displayPath(path: string, home: string = homedir()): string {
	if (home && (path === home || path.startsWith(home + sep))) return `~${path.slice(home.length)}`;
	return path;
}

/** The models.json path in the agent dir. */
export function modelsJsonPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "models.json");
}

/** The settings.json path in the agent dir. */
export function settingsJsonPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "settings.json");
}

/** The one line the first-run screen shows on how to get off the offline model. */
export function describeModelSetup(agentDir: string = getAgentDir()): string {
	const file = displayPath(modelsJsonPath(agentDir));
	return `Offline model — set ANTHROPIC_API_KEY / OPENAI_API_KEY, or add a local endpoint to ${file}`;
}
