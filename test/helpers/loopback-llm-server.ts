import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { anthropicFrames, type FrameContext, openAiFrames, type ScriptedResponse } from "./loopback-protocols.js";

export type { ScriptedResponse, ScriptedToolCall, ScriptedUsage } from "./loopback-protocols.js";

/** The two wire protocols the loopback server speaks. */
export type LoopbackProtocol = "openai" | "anthropic";

/** One request as the server received it. */
export interface RecordedRequest {
	readonly protocol: LoopbackProtocol;
	readonly method: string;
	readonly path: string;
	/** Header names lower-cased, as Node delivers them. */
	readonly headers: Readonly<Record<string, string>>;
	/** The parsed JSON body (`model`, `messages`, `tools`, `system`, …). */
	readonly body: Readonly<Record<string, unknown>>;
	/** Set once the client went away before the response was complete. */
	disconnected: boolean;
}

/** What `start()` returns. `baseUrl` has no path: OpenAI clients want `${baseUrl}/v1`, Anthropic's want `baseUrl`. */
export interface LoopbackHandle {
	readonly baseUrl: string;
	close(): Promise<void>;
}

function headerRecord(request: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(request.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	return headers;
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

function protocolOf(method: string | undefined, path: string): LoopbackProtocol | undefined {
	if (method !== "POST") return undefined;
	if (path.endsWith("/chat/completions")) return "openai";
	if (path.endsWith("/messages")) return "anthropic";
	return undefined;
}

function errorBody(protocol: LoopbackProtocol, message: string): string {
	return protocol === "openai"
		? JSON.stringify({ error: { message, type: "invalid_request_error" } })
		: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } });
}

/**
 * A real HTTP server on 127.0.0.1 that plays scripted model turns over the OpenAI chat-completions
 * and Anthropic messages streaming protocols, recording every request it gets.
 */
export class LoopbackLlmServer {
	/** Every request received, oldest first. */
	readonly requests: RecordedRequest[] = [];
	private readonly queue: ScriptedResponse[] = [];
	private readonly disconnectWaiters = new Map<RecordedRequest, () => void>();
	private readonly disconnects = new Map<RecordedRequest, Promise<void>>();
	private server: Server | undefined;
	private url: string | undefined;

	/** `http://127.0.0.1:<port>` once started. */
	get baseUrl(): string {
		if (!this.url) throw new Error("loopback: server not started");
		return this.url;
	}

	/** Queues turns; each request consumes the oldest. An empty queue answers 400. */
	enqueue(...responses: ScriptedResponse[]): void {
		this.queue.push(...responses);
	}

	/** How many queued turns no request has consumed yet. */
	pending(): number {
		return this.queue.length;
	}

	/** Resolves once the client of request `index` (default: the latest) disconnected mid-response. */
	async waitForDisconnect(index = this.requests.length - 1): Promise<void> {
		const request = this.requests[index];
		if (!request) throw new Error(`loopback: no request #${index}`);
		await this.disconnects.get(request);
	}

	/** Listens on a random port; `close()` also drops connections left hanging. */
	async start(): Promise<LoopbackHandle> {
		const server = createServer((request, response) => {
			this.handle(request, response).catch((error: unknown) => {
				if (!response.headersSent) response.writeHead(500);
				response.end(String(error));
			});
		});
		this.server = server;
		server.listen(0, "127.0.0.1");
		await once(server, "listening");
		const { port } = server.address() as AddressInfo;
		this.url = `http://127.0.0.1:${port}`;
		return { baseUrl: this.url, close: () => this.close() };
	}

	/** Stops the server and destroys open sockets (hung streams included). */
	async close(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		const closed = once(server, "close");
		server.close();
		server.closeAllConnections();
		await closed;
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = (request.url ?? "/").split("?")[0] ?? "/";
		const protocol = protocolOf(request.method, path);
		const text = await readBody(request);
		if (!protocol) {
			response.writeHead(404, { "content-type": "application/json" });
			response.end(JSON.stringify({ error: { message: `loopback: no route ${request.method} ${path}` } }));
			return;
		}
		const body = JSON.parse(text) as Record<string, unknown>;
		const recorded: RecordedRequest = {
			protocol,
			method: request.method ?? "POST",
			path,
			headers: headerRecord(request),
			body,
			disconnected: false,
		};
		this.requests.push(recorded);
		this.disconnects.set(recorded, new Promise((resolve) => this.disconnectWaiters.set(recorded, resolve)));
		response.on("close", () => {
			if (response.writableFinished) return;
			recorded.disconnected = true;
			this.disconnectWaiters.get(recorded)?.();
		});
		const scripted = this.queue.shift();
		if (!scripted || scripted.status !== undefined) {
			const status = scripted?.status ?? 400;
			const message = scripted ? `loopback: scripted status ${status}` : "loopback: no scripted response queued";
			response.writeHead(status, { "content-type": "application/json" });
			response.end(errorBody(protocol, message));
			return;
		}
		const context: FrameContext = {
			model: typeof body.model === "string" ? body.model : "unknown",
			requestChars: text.length,
			sequence: this.requests.length,
		};
		const frames = protocol === "openai" ? openAiFrames(scripted, context) : anthropicFrames(scripted, context);
		await this.stream(response, frames, scripted);
	}

	private async stream(response: ServerResponse, frames: readonly string[], scripted: ScriptedResponse): Promise<void> {
		response.writeHead(200, {
			"content-type": "text/event-stream",
			"cache-control": "no-cache",
			connection: "keep-alive",
		});
		response.flushHeaders();
		for (const [index, frame] of frames.entries()) {
			if (scripted.hangAfterChunks !== undefined && index >= scripted.hangAfterChunks) {
				// Hold the stream open; only the client's abort (or close()) ends it.
				return;
			}
			if (response.destroyed) return;
			response.write(frame);
			if (scripted.delayMsBetweenChunks) await delay(scripted.delayMsBetweenChunks);
		}
		response.end();
	}
}

/** Creates and starts a loopback server (`server.close()` in `afterEach`). */
export async function startLoopbackLlmServer(): Promise<LoopbackLlmServer> {
	const server = new LoopbackLlmServer();
	await server.start();
	return server;
}

/** One model a test's models.json offers. */
export interface LoopModel {
	id: string;
	contextWindow: number;
}

/** Writes `<agentDir>/models.json` with one provider, `loop`, at `baseUrl` (its key is "sk-loop"). */
export function writeLoopModels(
	agentDir: string,
	baseUrl: string,
	models: LoopModel[] = [{ id: "loop-model", contextWindow: 100_000 }],
	api: "openai-completions" | "anthropic-messages" = "openai-completions",
): void {
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(
		join(agentDir, "models.json"),
		JSON.stringify({ providers: { loop: { baseUrl, api, apiKey: "sk-loop", models } } }),
	);
}
