import { type Api, fauxAssistantMessage, type Model, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { estimateTokens } from "../../source/agent/compaction/token-estimate.js";
import { AgentSession, type ModelResolver, modelRef } from "../../source/session/agent-session.js";
import type { CompactionOptions } from "../../source/session/compactor.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

function resolver(...models: Model<Api>[]): ModelResolver {
	return { find: (ref) => models.find((m) => modelRef(m) === ref), getApiKey: () => "test-key" };
}

const WINDOW = 10_000;

describe("AgentSession over a path bigger than the model's window", () => {
	const temp = useTempAgentDir();
	let faux: ReturnType<typeof registerFauxProvider>;
	const sessions: AgentSession[] = [];

	beforeEach(() => {
		faux = registerFauxProvider({ models: [{ id: "faux-small", name: "Faux small", contextWindow: WINDOW }] });
	});
	afterEach(async () => {
		for (const s of sessions.splice(0)) await s.dispose().catch(() => undefined);
		faux.unregister();
	});

	/** A session of `turns` turns of about `chars` / 4 tokens each, written to disk and opened with its bodies there. */
	async function open(turns: number, chars: number, compaction: CompactionOptions): Promise<AgentSession> {
		const writer = await SessionManager.create(temp.root);
		for (let i = 0; i < turns; i++) {
			writer.appendMessage(userMessage(`question ${i} ${"q".repeat(chars / 2)}`));
			writer.appendMessage(assistantMessage(`answer ${i} ${"a".repeat(chars / 2)}`));
		}
		const file = writer.getSessionFile()!;
		await writer.close();
		const session = await AgentSession.create({
			sessionManager: await SessionManager.open(file, { lazyAboveBytes: 0, breadcrumb: false }),
			models: resolver(faux.getModel()),
			model: faux.getModel(),
			compaction,
		});
		sessions.push(session);
		return session;
	}

	it("loads only the newest messages the window takes (twice it by the estimate), and says how much stayed on disk", async () => {
		const session = await open(40, 4000, {});
		const tokens = session.messages.reduce((sum, message) => sum + estimateTokens(message), 0);
		expect(tokens).toBeLessThanOrEqual(2 * WINDOW);
		expect(session.messages.at(-1)).toMatchObject({ role: "assistant" });
		expect(session.omittedContext.messages + session.messages.length).toBe(80);
		expect(session.omittedContext.bytes).toBeGreaterThan(0);
	});

	it("with automatic compaction off, a prompt is refused with what to do, and nothing is sent", async () => {
		const session = await open(40, 4000, { auto: false });
		await expect(session.prompt("go on")).rejects.toThrow(
			/^The context since the last compaction \(~[\d,]+ tokens\) is bigger than Faux small's window \(10,000 tokens\): run \/compact, then send the prompt again$/,
		);
		expect(faux.state.callCount).toBe(0);
		expect(session.isStreaming).toBe(false);
	});

	it("/compact by hand then streams the older part into a summary, and the prompt fits", async () => {
		const session = await open(40, 4000, { auto: false });
		faux.setResponses(Array.from({ length: 12 }, (_, i) => fauxAssistantMessage(`summary ${i}`)));
		await session.compact();
		expect(session.omittedContext.messages).toBe(0);
		expect(session.messages[0]).toMatchObject({ role: "compactionSummary" });
		const tokens = session.messages.reduce((sum, message) => sum + estimateTokens(message), 0);
		expect(tokens).toBeLessThan(WINDOW);
	});

	it("Escape while it compacts before a prompt stops it, and the prompt is not sent", async () => {
		const session = await open(1000, 4000, {});
		let stopped = false;
		session.subscribe((event) => {
			if (event.type === "compaction_progress" && !stopped) {
				stopped = true;
				void session.abort();
			}
		});
		await expect(session.prompt("go on")).rejects.toThrow(
			/^Compaction stopped, so the prompt was not sent: the context since the last compaction \(~[\d,]+ tokens\) is bigger than Faux small's window \(10,000 tokens\); send it again to compact first$/,
		);
		expect(stopped).toBe(true);
		expect(faux.state.callCount).toBe(0);
		expect(session.sessionManager.getBranch().some((entry) => entry.type === "compaction")).toBe(false);
	});
});
