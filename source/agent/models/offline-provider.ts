import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	type Model,
	registerApiProvider,
	type SimpleStreamOptions,
	type Usage,
} from "@mariozechner/pi-ai";
import { type OfflineBlock, planOfflineReply } from "./offline-responder.js";
import { chunkText, estimateTokens, serializeContext } from "./offline-text.js";

/** The pi-ai api id the offline model streams through. */
export const OFFLINE_API = "xcsh-offline";
/** The provider name of the offline model. */
export const OFFLINE_PROVIDER = "xcsh";
/** The model id of the offline model. */
export const OFFLINE_MODEL_ID = "offline";

/** The built-in offline model: always available, free, deterministic. */
export const OFFLINE_MODEL: Model<Api> = {
	id: OFFLINE_MODEL_ID,
	name: "Offline (built-in)",
	api: OFFLINE_API,
	provider: OFFLINE_PROVIDER,
	baseUrl: "xcsh://offline",
	// It "thinks" only so the thinking UI can be exercised without a network.
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 128_000,
	maxTokens: 16_384,
};

/** True for the offline model (compared by provider and id, as pi-ai's `modelsAreEqual` does). */
export function isOfflineModel(model: Pick<Model<Api>, "provider" | "id">): boolean {
	return model.provider === OFFLINE_PROVIDER && model.id === OFFLINE_MODEL_ID;
}

function usageFor(input: number, output: number): Usage {
	return {
		input,
		output,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: input + output,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

function blockText(block: AssistantMessage["content"][number]): string {
	if (block.type === "text") return block.text;
	if (block.type === "thinking") return block.thinking;
	return `${block.name}${JSON.stringify(block.arguments)}`;
}

/** A macrotask between deltas, so consumers render and an abort lands between chunks like on a socket. */
function nextTick(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

class Aborted extends Error {}

/** Streams one reply; `partial` is mutated in place like pi-ai's providers do, snapshots go to listeners. */
class OfflineStreamer {
	readonly partial: AssistantMessage;

	constructor(
		private readonly stream: AssistantMessageEventStream,
		model: Model<Api>,
		private readonly inputTokens: number,
		private readonly signal: AbortSignal | undefined,
	) {
		this.partial = {
			role: "assistant",
			content: [],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: usageFor(inputTokens, 0),
			stopReason: "stop",
			timestamp: Date.now(),
		};
	}

	private snapshot(): AssistantMessage {
		return { ...this.partial, content: this.partial.content.map((block) => ({ ...block })) };
	}

	private async tick(): Promise<void> {
		await nextTick();
		if (this.signal?.aborted) throw new Aborted();
	}

	private countOutput(): void {
		const output = estimateTokens(this.partial.content.map(blockText).join(""));
		this.partial.usage = usageFor(this.inputTokens, output);
	}

	start(): void {
		if (this.signal?.aborted) throw new Aborted();
		this.stream.push({ type: "start", partial: this.snapshot() });
	}

	async block(block: OfflineBlock): Promise<void> {
		const contentIndex = this.partial.content.length;
		if (block.type === "toolCall") {
			this.partial.content.push({ type: "toolCall", id: block.id, name: block.name, arguments: {} });
			this.stream.push({ type: "toolcall_start", contentIndex, partial: this.snapshot() });
			const json = JSON.stringify(block.arguments);
			for (const delta of chunkText(json)) {
				await this.tick();
				this.stream.push({ type: "toolcall_delta", contentIndex, delta, partial: this.snapshot() });
			}
			const toolCall = { type: "toolCall" as const, id: block.id, name: block.name, arguments: { ...block.arguments } };
			this.partial.content[contentIndex] = toolCall;
			this.countOutput();
			this.stream.push({ type: "toolcall_end", contentIndex, toolCall, partial: this.snapshot() });
			return;
		}
		const kind = block.type;
		const full = kind === "text" ? block.text : block.thinking;
		const current = kind === "text" ? { type: kind, text: "" } : { type: kind, thinking: "" };
		this.partial.content.push(current);
		this.stream.push({ type: `${kind}_start`, contentIndex, partial: this.snapshot() });
		for (const delta of chunkText(full)) {
			await this.tick();
			if (current.type === "text") current.text += delta;
			else current.thinking += delta;
			this.countOutput();
			this.stream.push({ type: `${kind}_delta`, contentIndex, delta, partial: this.snapshot() });
		}
		this.stream.push({ type: `${kind}_end`, contentIndex, content: full, partial: this.snapshot() });
	}

	finish(stopReason: "stop" | "toolUse"): void {
		this.partial.stopReason = stopReason;
		const message = this.snapshot();
		this.stream.push({ type: "done", reason: stopReason, message });
		this.stream.end(message);
	}

	fail(error: unknown): void {
		const aborted = error instanceof Aborted;
		this.countOutput();
		const message: AssistantMessage = {
			...this.snapshot(),
			stopReason: aborted ? "aborted" : "error",
			errorMessage: aborted ? "Request was aborted" : error instanceof Error ? error.message : String(error),
		};
		this.stream.push({ type: "error", reason: aborted ? "aborted" : "error", error: message });
		this.stream.end(message);
	}
}

/** The offline model's stream function (serves both `stream` and `streamSimple`). */
export function streamOffline(
	model: Model<Api>,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const streamer = new OfflineStreamer(stream, model, estimateTokens(serializeContext(context)), options?.signal);
	// pi-ai's contract: return the stream synchronously, deliver every event asynchronously.
	queueMicrotask(async () => {
		try {
			await options?.onResponse?.({ status: 200, headers: {} }, model);
			const reply = planOfflineReply(context, { thinking: model.reasoning && options?.reasoning !== undefined });
			streamer.start();
			for (const block of reply.blocks) await streamer.block(block);
			streamer.finish(reply.stopReason);
		} catch (error) {
			streamer.fail(error);
		}
	});
	return stream;
}

/**
 * Registers the offline api with pi-ai's api registry (the shape pi-ai's faux provider uses).
 * Idempotent; called on import so `streamSimple(OFFLINE_MODEL, …)` works wherever the model is,
 * and callable again after something clears the registry.
 */
export function registerOfflineProvider(): void {
	registerApiProvider(
		{ api: OFFLINE_API, stream: streamOffline, streamSimple: streamOffline },
		"xcsh-offline-provider",
	);
}

registerOfflineProvider();
