/** A tool call the scripted model makes; `arguments` is sent as JSON in several chunks. */
export interface ScriptedToolCall {
	readonly name: string;
	readonly arguments: Readonly<Record<string, unknown>>;
	readonly id?: string;
}

/** Token counts the scripted model reports; omitted counts are estimated from text length. */
export interface ScriptedUsage {
	readonly input?: number;
	readonly output?: number;
	readonly cacheRead?: number;
	readonly cacheWrite?: number;
}

/** One scripted model turn, served to the next request. */
export interface ScriptedResponse {
	readonly text?: string;
	readonly toolCalls?: readonly ScriptedToolCall[];
	readonly thinking?: string;
	readonly usage?: ScriptedUsage;
	/** Pause between SSE frames (default 0: frames still go out one write at a time). */
	readonly delayMsBetweenChunks?: number;
	/** Write this many SSE frames, then hold the connection open until the client goes away. */
	readonly hangAfterChunks?: number;
	/** Answer with this HTTP status and an error body instead of a stream. */
	readonly status?: number;
	/** Stop reason to report; defaults to tool use when there are tool calls, else a normal stop. */
	readonly stopReason?: "stop" | "length" | "toolUse";
}

/** The model id a scripted frame names: the one the request asked for. */
export interface FrameContext {
	readonly model: string;
	readonly requestChars: number;
	readonly sequence: number;
}

/** Splits text into pieces of a few characters, so every test sees several deltas. */
export function pieces(text: string, size = 8): string[] {
	const out: string[] = [];
	for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
	return out;
}

function tokens(chars: number): number {
	return Math.max(1, Math.ceil(chars / 4));
}

function resolvedUsage(response: ScriptedResponse, context: FrameContext): Required<ScriptedUsage> {
	const outputChars =
		(response.text?.length ?? 0) +
		(response.thinking?.length ?? 0) +
		(response.toolCalls ?? []).reduce((sum, call) => sum + JSON.stringify(call.arguments).length, 0);
	return {
		input: response.usage?.input ?? tokens(context.requestChars),
		output: response.usage?.output ?? tokens(outputChars),
		cacheRead: response.usage?.cacheRead ?? 0,
		cacheWrite: response.usage?.cacheWrite ?? 0,
	};
}

function toolCallId(call: ScriptedToolCall, index: number, context: FrameContext, prefix: string): string {
	return call.id ?? `${prefix}_${context.sequence}_${index}`;
}

/** OpenAI chat-completions streaming frames (`data: {...}` each, then `data: [DONE]`). */
export function openAiFrames(response: ScriptedResponse, context: FrameContext): string[] {
	const id = `chatcmpl-loopback-${context.sequence}`;
	const chunk = (choice: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) =>
		`data: ${JSON.stringify({
			id,
			object: "chat.completion.chunk",
			created: 1_760_000_000,
			model: context.model,
			choices: choice ? [{ index: 0, finish_reason: null, ...choice }] : [],
			...extra,
		})}\n\n`;
	const frames = [chunk({ delta: { role: "assistant", content: "" } })];
	for (const piece of pieces(response.thinking ?? "")) frames.push(chunk({ delta: { reasoning_content: piece } }));
	for (const piece of pieces(response.text ?? "")) frames.push(chunk({ delta: { content: piece } }));
	(response.toolCalls ?? []).forEach((call, index) => {
		const start = { index, id: toolCallId(call, index, context, "call"), type: "function" };
		frames.push(chunk({ delta: { tool_calls: [{ ...start, function: { name: call.name, arguments: "" } }] } }));
		for (const piece of pieces(JSON.stringify(call.arguments))) {
			frames.push(chunk({ delta: { tool_calls: [{ index, function: { arguments: piece } }] } }));
		}
	});
	const stop = response.stopReason ?? (response.toolCalls?.length ? "toolUse" : "stop");
	const finish = stop === "toolUse" ? "tool_calls" : stop;
	frames.push(chunk({ delta: {}, finish_reason: finish }));
	const usage = resolvedUsage(response, context);
	const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
	frames.push(
		chunk(undefined, {
			usage: {
				prompt_tokens: prompt,
				completion_tokens: usage.output,
				total_tokens: prompt + usage.output,
				prompt_tokens_details: {
					cached_tokens: usage.cacheRead + usage.cacheWrite,
					cache_write_tokens: usage.cacheWrite,
				},
			},
		}),
	);
	frames.push("data: [DONE]\n\n");
	return frames;
}

function event(type: string, data: Record<string, unknown>): string {
	return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** Anthropic messages SSE frames, from `message_start` to `message_stop`. */
export function anthropicFrames(response: ScriptedResponse, context: FrameContext): string[] {
	const usage = resolvedUsage(response, context);
	const frames = [
		event("message_start", {
			message: {
				id: `msg_loopback_${context.sequence}`,
				type: "message",
				role: "assistant",
				model: context.model,
				content: [],
				stop_reason: null,
				stop_sequence: null,
				usage: {
					input_tokens: usage.input,
					output_tokens: 1,
					cache_read_input_tokens: usage.cacheRead,
					cache_creation_input_tokens: usage.cacheWrite,
				},
			},
		}),
	];
	let index = 0;
	const block = (contentBlock: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
		frames.push(event("content_block_start", { index, content_block: contentBlock }));
		for (const delta of deltas) frames.push(event("content_block_delta", { index, delta }));
		frames.push(event("content_block_stop", { index }));
		index++;
	};
	if (response.thinking) {
		const deltas = pieces(response.thinking).map((thinking) => ({ type: "thinking_delta", thinking }));
		block({ type: "thinking", thinking: "", signature: "" }, [
			...deltas,
			{ type: "signature_delta", signature: `sig_loopback_${context.sequence}` },
		]);
	}
	if (response.text) {
		block(
			{ type: "text", text: "" },
			pieces(response.text).map((text) => ({ type: "text_delta", text })),
		);
	}
	(response.toolCalls ?? []).forEach((call, callIndex) => {
		const id = toolCallId(call, callIndex, context, "toolu_loopback");
		const deltas = pieces(JSON.stringify(call.arguments)).map((json) => ({
			type: "input_json_delta",
			partial_json: json,
		}));
		block({ type: "tool_use", id, name: call.name, input: {} }, deltas);
	});
	const stop = response.stopReason ?? (response.toolCalls?.length ? "toolUse" : "stop");
	const stopReason = stop === "toolUse" ? "tool_use" : stop === "length" ? "max_tokens" : "end_turn";
	frames.push(
		event("message_delta", {
			delta: { stop_reason: stopReason, stop_sequence: null },
			usage: { output_tokens: usage.output },
		}),
	);
	frames.push(event("message_stop", {}));
	return frames;
}
