import { completePath, type PathCompletion } from "../source/path-completion.js";
import { safeText } from "../source/render/safe-text.js";

/** What a submitted editor line means. */
export type RoutedInput =
	| { readonly kind: "command"; readonly name: string; readonly args: string }
	| { readonly kind: "prompt"; readonly text: string }
	| { readonly kind: "steer"; readonly text: string }
	| { readonly kind: "follow-up"; readonly text: string }
	/** A message the session cannot take (it is read-only): the text stays in the editor. */
	| { readonly kind: "refused"; readonly text: string; readonly reason: string }
	| { readonly kind: "ignore" };

/** The situation a line is submitted in. */
export interface RouteContext {
	/** True while the agent is producing a turn. */
	readonly isStreaming: boolean;
	/** Why the session takes no messages now (open read-only), if it does not; commands still run. */
	readonly refusal?: string | undefined;
}

/** Where prompts are recorded; `HistoryStorage` satisfies it. */
export interface HistoryRecorder {
	add(prompt: string, cwd?: string): void;
}

/** Where recalled prompts come from, newest first; `HistoryStorage` satisfies it. */
export interface HistorySource {
	getRecent(limit: number): readonly { readonly prompt: string }[];
	search(query: string, limit: number): readonly { readonly prompt: string }[];
}

/** What an `InputController` is built from. */
export interface InputControllerOptions {
	readonly recorder: HistoryRecorder;
	readonly source: HistorySource;
	/** Stored with every recorded prompt. */
	readonly cwd: string;
}

const FOLLOW_UP_PREFIX = ">>";

/** Decides what a line submitted from the editor means and keeps prompt history. */
export class InputController {
	private readonly recorder: HistoryRecorder;
	private readonly source: HistorySource;
	private readonly cwd: string;

	/** Wires the controller to its history store (usually the same `HistoryStorage` twice). */
	constructor(options: InputControllerOptions) {
		this.recorder = options.recorder;
		this.source = options.source;
		this.cwd = options.cwd;
	}

	/**
	 * Routes a submitted line and records prompts (never commands) in history.
	 *
	 * - blank (empty or whitespace only) → `ignore`
	 * - starts with `/` (after leading whitespace) → `command`: `name` runs to the first whitespace,
	 *   `args` is the rest with the separating and trailing whitespace trimmed; spacing and newlines
	 *   inside the args are kept. A bare `/` is a command with an empty name (the registry reports it).
	 * - while streaming: `>> text` → `follow-up` (queued until the turn ends); anything else →
	 *   `steer` (delivered to the running turn).
	 * - idle: a prompt. A leftover `>>` is dropped, since a follow-up to no turn is just a prompt.
	 * - a message while the context has a `refusal` → `refused`, not recorded (it is still in the editor).
	 */
	route(text: string, context: RouteContext): RoutedInput {
		const routed = classify(text, context);
		if (context.refusal !== undefined && isMessage(routed)) {
			return { kind: "refused", text: routed.text, reason: context.refusal };
		}
		if (isMessage(routed)) this.recorder.add(routed.text, this.cwd);
		return routed;
	}

	/** Newest prompts first, for ↑/↓ browsing in the editor (controls made visible: they are drawn). */
	getRecent(limit = 100): string[] {
		return this.source.getRecent(limit).map((entry) => safeText(entry.prompt));
	}

	/** Prompts matching `query`, best first, without duplicates; for Ctrl+R. */
	search(query: string, limit = 50): string[] {
		if (query.trim() === "") return [];
		return [...new Set(this.source.search(query, limit).map((entry) => safeText(entry.prompt)))];
	}

	/** Tab completion of `token` as a path relative to `cwd` (the session's directory); see `completePath`. */
	completePath(cwd: string, token: string): PathCompletion {
		return completePath(cwd, token);
	}
}

function isMessage(routed: RoutedInput): routed is Extract<RoutedInput, { kind: "prompt" | "steer" | "follow-up" }> {
	return routed.kind === "prompt" || routed.kind === "steer" || routed.kind === "follow-up";
}

function classify(text: string, { isStreaming }: RouteContext): RoutedInput {
	const trimmedStart = text.trimStart();
	if (trimmedStart === "") return { kind: "ignore" };
	if (trimmedStart.startsWith("/")) {
		const body = trimmedStart.slice(1);
		const space = body.search(/\s/);
		if (space === -1) return { kind: "command", name: body, args: "" };
		return { kind: "command", name: body.slice(0, space), args: body.slice(space).trim() };
	}
	if (trimmedStart.startsWith(FOLLOW_UP_PREFIX)) {
		const rest = trimmedStart.slice(FOLLOW_UP_PREFIX.length).trimStart();
		if (rest.trim() === "") return { kind: "ignore" };
		return isStreaming ? { kind: "follow-up", text: rest } : { kind: "prompt", text: rest };
	}
	return isStreaming ? { kind: "steer", text } : { kind: "prompt", text };
}
