import { type Api, getSupportedThinkingLevels, type Model, type ModelThinkingLevel } from "@mariozechner/pi-ai";

/** Every thinking level xcsh accepts, weakest first (pi-ai's `ModelThinkingLevel`). */
export const THINKING_LEVELS: readonly ModelThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** The result of parsing a user-supplied thinking level. */
export type ThinkingLevelParse =
	| { readonly ok: true; readonly level: ModelThinkingLevel }
	| { readonly ok: false; readonly error: string };

/** Type guard for a valid thinking level string. */
export function isThinkingLevel(value: string): value is ModelThinkingLevel {
	return (THINKING_LEVELS as readonly string[]).includes(value);
}

/** Parses `--thinking <level>` (case-insensitive); the error names the flag and every valid level. */
export function parseThinkingLevel(value: string | undefined, flag = "--thinking"): ThinkingLevelParse {
	const normalized = (value ?? "").trim().toLowerCase();
	if (isThinkingLevel(normalized)) return { ok: true, level: normalized };
	const got = value === undefined || value.trim() === "" ? "nothing" : `"${value}"`;
	return { ok: false, error: `${flag} must be one of ${THINKING_LEVELS.join(", ")} (got ${got})` };
}

/** The levels a model really supports ("off" only for models without reasoning). */
export function thinkingLevelsFor(model: Model<Api>): ModelThinkingLevel[] {
	return getSupportedThinkingLevels(model);
}
