import type { AssistantMessage, ToolResultMessage } from "@mariozechner/pi-ai";
import type { BashExecutionMessage } from "../../source/session/messages.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";

/** A real 1×1 PNG, so the browser decodes it without complaint. */
export const PNG_1X1 =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** The entry ids of `branchedSession`, by role in the story. */
export interface BranchedIds {
	u1: string;
	a1: string;
	u2: string;
	a2: string;
	u3: string;
	a3: string;
	t1: string;
	a4: string;
}

/** An assistant turn with thinking, text and one tool call. */
export function assistantWithTool(text: string, callId: string, args: Record<string, unknown>): AssistantMessage {
	return {
		...assistantMessage(text),
		content: [
			{ type: "thinking", thinking: "Let me think about THINKINGTEXT" },
			{ type: "text", text },
			{ type: "toolCall", id: callId, name: "read", arguments: args },
		],
		stopReason: "toolUse",
	};
}

/** A tool result answering `callId`. */
export function resultFor(callId: string, text: string, withImage = false): ToolResultMessage {
	const images = withImage ? [{ type: "image" as const, data: PNG_1X1, mimeType: "image/png" }] : [];
	return { ...toolResultMessage(text, images), toolCallId: callId };
}

/**
 * u1 → a1 → (side branch: u2 → a2 "OTHERBRANCH") and the active branch: thinking change → u3 →
 * a3 (thinking, code, tool call) → t1 (result with an image) → label on u3 → compaction → a4.
 */
export async function branchedSession(cwd: string): Promise<{ session: SessionManager; ids: BranchedIds }> {
	const session = await SessionManager.create(cwd);
	const u1 = session.appendMessage(userMessage("Hello there FIRSTPROMPT"));
	const a1 = session.appendMessage(assistantMessage("Hi! How can I help?"));
	session.appendModelChange("openai/gpt-5");
	const u2 = session.appendMessage(userMessage("Try the other approach OTHERQUESTION"));
	const a2 = session.appendMessage(assistantMessage("Other branch answer OTHERBRANCH", "gpt-5", "openai"));
	session.branch(a1);
	session.appendThinkingLevelChange("high");
	const u3 = session.appendMessage(userMessage("Write a function MAINQUESTION"));
	const code = "```ts\nexport function add(a: number, b: number): number {\n\treturn a + b;\n}\n```";
	const a3 = session.appendMessage(assistantWithTool(`Here it is:\n\n${code}`, "call_main", { path: "src/add.ts" }));
	const t1 = session.appendMessage(resultFor("call_main", "TOOLOUTPUT file contents", true));
	session.appendLabelChange(u3, "checkpoint");
	session.appendCompaction("Summary of earlier work COMPACTSUMMARY", undefined, u3, 12345);
	const a4 = session.appendMessage(assistantMessage("All done MAINLINE"));
	await session.flush();
	return { session, ids: { u1, a1, u2, a2, u3, a3, t1, a4 } };
}

/** Payloads that must show as text and never run; the ones that could run set `window.__xss`. */
export const XSS = {
	script: "</script><script>window.__xss=1;alert(1)</script>",
	img: '<img src=x onerror="window.__xss=2;alert(2)">',
	link: "[x](javascript:alert(1)) and [y](javascript:window.__xss=3)",
	autolink: "<javascript:window.__xss=4>",
	svg: '<svg onload="window.__xss=5"></svg>',
	iframe: '<iframe src="javascript:window.__xss=6"></iframe>',
	markdownImage: '![z](javascript:window.__xss=7) ![w](x" onerror="window.__xss=8)',
	dataLink: "[d](data:text/html,<script>window.__xss=9</script>)",
	comment: "<!-- <script>window.__xss=10</script> -->",
	separators: "line\u2028separator\u2029paragraph",
} as const;

/** All payloads in one markdown text. */
export const XSS_TEXT = Object.values(XSS).join("\n\n");

/** A session with the payloads in every place session text reaches the page. */
export async function xssSession(cwd: string): Promise<SessionManager> {
	const session = await SessionManager.create(cwd);
	await session.setSessionName(XSS.script);
	session.appendMessage(userMessage(XSS_TEXT));
	const call = `call_${XSS.img}`;
	const assistant = assistantWithTool(XSS_TEXT, call, { path: XSS.script, command: XSS.img });
	assistant.model = XSS.img;
	const block = assistant.content[2];
	if (block?.type === "toolCall") block.name = XSS.script;
	assistant.content[0] = { type: "thinking", thinking: XSS_TEXT };
	session.appendMessage(assistant);
	const result = resultFor(call, XSS_TEXT, true);
	result.toolName = XSS.img;
	result.content.push({ type: "image", data: PNG_1X1, mimeType: `image/png" onerror="window.__xss=11` });
	result.content.push({ type: "image", data: `${PNG_1X1}" onerror="window.__xss=12`, mimeType: "image/png" });
	session.appendMessage(result);
	const bash: BashExecutionMessage = {
		role: "bashExecution",
		command: XSS.script,
		output: XSS_TEXT,
		exitCode: 1,
		cancelled: false,
		truncated: false,
		timestamp: Date.now(),
	};
	session.appendMessage(bash);
	session.appendModelChange(XSS.img);
	session.appendCustomMessageEntry(XSS.script, XSS_TEXT, true);
	session.appendCompaction(XSS_TEXT, undefined, session.getEntries()[0]!.id, 1);
	session.appendLabelChange(session.getEntries()[0]!.id, XSS.img);
	session.appendMessage(assistantMessage(XSS_TEXT));
	await session.flush();
	return session;
}

/** Agent state carrying the payloads too. */
export const XSS_STATE = {
	systemPrompt: XSS_TEXT,
	tools: [{ name: XSS.script, description: XSS_TEXT, parameters: { type: "object", description: XSS.img } }],
};
