import { closeSync, openSync, writeSync } from "node:fs";

/** What `writeBigSession` wrote. */
export interface BigSession {
	bytes: number;
	entries: number;
	lastEntryId: string;
}

/** The last assistant message's text, for finding it on screen or in a context. */
export const BIG_SESSION_LAST_ANSWER = "The last answer of a very big session.";

const id = (n: number): string => n.toString(16).padStart(8, "0");

/**
 * Writes a valid v3 session of `turns` turns (user, assistant tool call, a tool result of
 * `toolResultBytes`, assistant answer), line by line: the file may be bigger than any string.
 * With `compactBeforeLast`, a compaction before the last N turns keeps only them in the context.
 */
export function writeBigSession(
	path: string,
	turns: number,
	toolResultBytes: number,
	options: { compactBeforeLast?: number; cwd?: string } = {},
): BigSession {
	const fd = openSync(path, "w", 0o600);
	let bytes = 0;
	let n = 0;
	let parent: string | null = null;
	const start = Date.parse("2026-11-01T00:00:00Z");
	const write = (value: object): void => {
		const line = `${JSON.stringify(value)}\n`;
		bytes += writeSync(fd, line);
	};
	const entry = (fields: object): void => {
		n++;
		const timestamp = new Date(start + n * 1000).toISOString();
		write({ type: "message", id: id(n), parentId: parent, timestamp, ...fields });
		parent = id(n);
	};
	const usage = {
		input: 10,
		output: 5,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 15,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
	};
	const assistant = (content: object[]) => ({
		role: "assistant",
		content,
		api: "openai-completions",
		provider: "openai",
		model: "gpt-4o",
		usage,
		stopReason: "stop",
		timestamp: start + n,
	});
	const filler = "0123456789abcdef ".repeat(Math.ceil(toolResultBytes / 17)).slice(0, toolResultBytes);
	try {
		write({
			type: "session",
			version: 3,
			id: "big-session-0001",
			timestamp: new Date(start).toISOString(),
			cwd: options.cwd ?? "/work/big",
		});
		const compactAt = options.compactBeforeLast === undefined ? -1 : turns - options.compactBeforeLast;
		let firstKept: string | undefined;
		for (let turn = 0; turn < turns; turn++) {
			if (turn === compactAt) firstKept = id(n + 1);
			entry({ message: { role: "user", content: [{ type: "text", text: `question ${turn}` }], timestamp: start + n } });
			const callId = `call_${turn}`;
			entry({
				message: assistant([{ type: "toolCall", id: callId, name: "read", arguments: { path: `file${turn}.txt` } }]),
			});
			entry({
				message: {
					role: "toolResult",
					toolCallId: callId,
					toolName: "read",
					content: [{ type: "text", text: `${turn}:${filler}` }],
					isError: false,
					timestamp: start + n,
				},
			});
			const text = turn === turns - 1 ? BIG_SESSION_LAST_ANSWER : `answer ${turn}`;
			entry({ message: assistant([{ type: "text", text }]) });
			if (turn === turns - 1 && firstKept !== undefined) {
				n++;
				const timestamp = new Date(start + n * 1000).toISOString();
				write({
					type: "compaction",
					id: id(n),
					parentId: parent,
					timestamp,
					summary: "What happened before.",
					firstKeptEntryId: firstKept,
					tokensBefore: 1_000_000,
				});
				parent = id(n);
			}
		}
	} finally {
		closeSync(fd);
	}
	return { bytes, entries: n, lastEntryId: id(n) };
}
