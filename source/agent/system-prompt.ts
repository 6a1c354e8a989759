import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A tool as the system prompt lists it. */
export interface PromptTool {
	name: string;
	description: string;
}

const CONTEXT_FILES = ["AGENTS.md", "CLAUDE.md"];
const MAX_CONTEXT_CHARS = 20_000;

function projectContext(cwd: string): string | undefined {
	for (const name of CONTEXT_FILES) {
		const path = join(cwd, name);
		if (!existsSync(path)) continue;
		try {
			return `Project instructions from ${name}:\n\n${readFileSync(path, "utf8").slice(0, MAX_CONTEXT_CHARS)}`;
		} catch {
			return undefined;
		}
	}
	return undefined;
}

/** The system prompt: who the agent is, where it works, its tools, and the project's own instructions. */
export function buildSystemPrompt(options: { cwd: string; tools: readonly PromptTool[]; now?: Date }): string {
	const now = options.now ?? new Date();
	const tools = options.tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`).join("\n");
	const parts = [
		"You are xcsh, a coding agent working in the user's terminal. You read and edit files and run commands to get the task done.",
		`Working directory: ${options.cwd}\nToday's date: ${now.toISOString().slice(0, 10)}`,
		`Tools:\n${tools || "(none)"}`,
		"Guidelines:\n- Read a file before editing it; use edit for precise changes and write for new files.\n- Prefer small, verifiable steps; run the project's tests when you change code.\n- Be concise: say what you did and what is left.",
	];
	const context = projectContext(options.cwd);
	if (context) parts.push(context);
	return parts.join("\n\n");
}
