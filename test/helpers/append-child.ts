/**
 * Child process for the crash test: `node --import tsx test/helpers/append-child.ts <file> [maxEntries]`.
 *
 * Opens (creates) a session at <file>, appends an assistant message (entry 0) and then entries
 * 1, 2, … whose contents are `crashEntryContent(index)`. Every 50 appends it calls flush() and then
 * writes `ids <id>,<id>,…` (the ids of that batch, in order) and `flushed <n>` (entries appended and
 * flushed so far) to stdout. It keeps going until killed or until maxEntries entries were appended.
 *
 * Imported (not run) by the test for `crashEntryContent`, so the expected contents have one source.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { SessionManager } from "../../source/session/session-manager.js";

export const CRASH_BATCH = 50;

export type CrashEntryContent =
	| { kind: "message"; message: AgentMessage }
	| { kind: "custom"; customType: string; data: { index: number; text: string } };

/** The deterministic content of the child's entry `index` (entry 0 is the assistant message). */
export function crashEntryContent(index: number): CrashEntryContent {
	if (index === 0) {
		return {
			kind: "message",
			message: {
				role: "assistant",
				content: [{ type: "text", text: "crash test assistant" }],
				api: "anthropic-messages",
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				usage: {
					input: 1,
					output: 1,
					cacheRead: 0,
					cacheWrite: 0,
					totalTokens: 2,
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
				},
				stopReason: "stop",
				timestamp: 1_700_000_000_000,
			},
		};
	}
	if (index % 7 === 0) {
		return {
			kind: "message",
			message: {
				role: "user",
				content: [{ type: "text", text: `user ${index}` }],
				timestamp: 1_700_000_000_000 + index,
			},
		};
	}
	return {
		kind: "custom",
		customType: "crash-test",
		data: { index, text: `entry ${index} ${"x".repeat(index % 97)}` },
	};
}

async function main(argv: readonly string[]): Promise<void> {
	const [file, maxArg] = argv;
	if (!file) {
		process.stderr.write("usage: append-child.ts <file> [maxEntries]\n");
		process.exit(2);
	}
	const maxEntries = maxArg === undefined ? 200_000 : Number(maxArg);
	const session = await SessionManager.open(file);
	let batch: string[] = [];
	for (let index = 0; index < maxEntries; index++) {
		const content = crashEntryContent(index);
		const id =
			content.kind === "message"
				? session.appendMessage(content.message)
				: session.appendCustomEntry(content.customType, content.data);
		batch.push(id);
		if ((index + 1) % CRASH_BATCH === 0) {
			await session.flush();
			process.stdout.write(`ids ${batch.join(",")}\nflushed ${index + 1}\n`);
			batch = [];
		}
	}
	await session.close();
	process.stdout.write("done\n");
}

const entry = process.argv[1];
if (entry !== undefined && resolve(entry) === fileURLToPath(import.meta.url)) {
	await main(process.argv.slice(2));
}
