import { getModel } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { OFFLINE_MODEL } from "../../../source/agent/models/offline-provider.js";
import {
	parseThinkingLevel,
	THINKING_LEVELS,
	thinkingLevelsFor,
} from "../../../source/agent/models/thinking-levels.js";

describe("thinking levels", () => {
	it("lists every level weakest first", () => {
		expect(THINKING_LEVELS).toEqual(["off", "minimal", "low", "medium", "high", "xhigh"]);
	});

	it("parses valid levels case-insensitively", () => {
		expect(parseThinkingLevel("high")).toEqual({ ok: true, level: "high" });
		expect(parseThinkingLevel(" XHigh ")).toEqual({ ok: true, level: "xhigh" });
	});

	it("rejects anything else with one clear line", () => {
		expect(parseThinkingLevel("huge")).toEqual({
			ok: false,
			error: '--thinking must be one of off, minimal, low, medium, high, xhigh (got "huge")',
		});
		expect(parseThinkingLevel(undefined)).toEqual({
			ok: false,
			error: "--thinking must be one of off, minimal, low, medium, high, xhigh (got nothing)",
		});
	});

	it("knows which levels a model supports", () => {
		expect(thinkingLevelsFor(getModel("openai", "gpt-4o"))).toEqual(["off"]);
		expect(thinkingLevelsFor(OFFLINE_MODEL)).toContain("high");
	});
});
