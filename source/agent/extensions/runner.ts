import { log } from "../../logger.js";
import type {
	BeforeSwitchResult,
	CustomTool,
	ExtensionApi,
	ExtensionEvent,
	ExtensionEventType,
	ExtensionFactory,
	ExtensionHandler,
	SessionBeforeSwitchEvent,
	ToolSessionEvent,
} from "./types.js";

/** A problem an extension caused; reported to the person, never fatal. */
export interface ExtensionError {
	extension: string;
	message: string;
}

type AnyHandler = (event: ExtensionEvent) => unknown;

interface Registered {
	name: string;
	handlers: Map<ExtensionEventType, AnyHandler[]>;
	tools: CustomTool[];
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Runs extension handlers in load order; a throwing handler is reported and skipped. */
export class ExtensionRunner {
	readonly #extensions: Registered[] = [];
	readonly #errors: ExtensionError[] = [];
	readonly #errorListeners = new Set<(error: ExtensionError) => void>();

	/** Calls an extension factory with its API; a factory that throws is reported and dropped. */
	async add(name: string, factory: ExtensionFactory): Promise<void> {
		const registered: Registered = { name, handlers: new Map(), tools: [] };
		const api: ExtensionApi = {
			on<K extends ExtensionEventType>(type: K, handler: ExtensionHandler<K>): void {
				const list = registered.handlers.get(type) ?? [];
				list.push(handler as unknown as AnyHandler);
				registered.handlers.set(type, list);
			},
			registerTool(tool: CustomTool): void {
				registered.tools.push(tool);
			},
		};
		try {
			await factory(api);
			this.#extensions.push(registered);
		} catch (error) {
			this.report({ extension: name, message: `failed to initialise: ${describe(error)}` });
		}
	}

	/** Records an extension problem (also used by the loader). */
	report(error: ExtensionError): void {
		this.#errors.push(error);
		log.warn(`extension ${error.extension}: ${error.message}`);
		for (const listener of this.#errorListeners) listener(error);
	}

	/** Problems so far. */
	get errors(): readonly ExtensionError[] {
		return this.#errors;
	}

	/** Hears about extension problems as they happen. */
	onError(listener: (error: ExtensionError) => void): () => void {
		this.#errorListeners.add(listener);
		return () => this.#errorListeners.delete(listener);
	}

	/** Tools every extension registered. */
	getTools(): CustomTool[] {
		return this.#extensions.flatMap((e) => e.tools);
	}

	/** Asks every handler in order; the first one that cancels wins and the rest are not asked. */
	async emitBeforeSwitch(event: SessionBeforeSwitchEvent): Promise<BeforeSwitchResult> {
		for (const { name, handler } of this.#handlers("session_before_switch")) {
			try {
				const result = (await handler(event)) as BeforeSwitchResult | undefined;
				if (result?.cancel) return { cancel: true };
			} catch (error) {
				this.report({ extension: name, message: `session_before_switch handler failed: ${describe(error)}` });
			}
		}
		return {};
	}

	/** Tells every handler of an observational event. */
	async emit(event: Exclude<ExtensionEvent, SessionBeforeSwitchEvent>): Promise<void> {
		for (const { name, handler } of this.#handlers(event.type)) {
			try {
				await handler(event);
			} catch (error) {
				this.report({ extension: name, message: `${event.type} handler failed: ${describe(error)}` });
			}
		}
	}

	/** Calls `onSession` of every custom tool that has one. */
	async notifyTools(event: ToolSessionEvent): Promise<void> {
		for (const extension of this.#extensions) {
			for (const tool of extension.tools) {
				if (!tool.onSession) continue;
				try {
					await tool.onSession(event);
				} catch (error) {
					this.report({ extension: extension.name, message: `tool ${tool.name} onSession failed: ${describe(error)}` });
				}
			}
		}
	}

	*#handlers(type: ExtensionEventType): Generator<{ name: string; handler: AnyHandler }> {
		for (const extension of this.#extensions) {
			for (const handler of extension.handlers.get(type) ?? []) yield { name: extension.name, handler };
		}
	}
}
