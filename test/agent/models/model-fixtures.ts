import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Context, type Tool, Type, type UserMessage } from "@mariozechner/pi-ai";

/** Writes `<agentDir>/<name>` (JSON-encodes non-strings), creating the directory. */
export function writeAgentFile(agentDir: string, name: string, content: unknown): void {
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(join(agentDir, name), typeof content === "string" ? content : JSON.stringify(content, null, "\t"));
}

/** The bash and read tools as the session layer declares them (schemas only). */
export const TOOLS: Tool[] = [
	{ name: "bash", description: "Run a shell command", parameters: Type.Object({ command: Type.String() }) },
	{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) },
];

/** A user message at a fixed time, so contexts compare equal across runs. */
export function user(text: string): UserMessage {
	return { role: "user", content: text, timestamp: 1_760_000_000_000 };
}

/** A one-prompt context, with the tools unless told otherwise. */
export function promptContext(text: string, tools: Tool[] | undefined = TOOLS): Context {
	return { systemPrompt: "You are xcsh.", messages: [user(text)], ...(tools ? { tools } : {}) };
}
