import { describe, expect, it } from "vitest";
import { nameEndpoint } from "../../../source/agent/models/endpoint-error.js";

describe("nameEndpoint", () => {
	const model = { provider: "ollama", baseUrl: "http://localhost:11434/v1" };

	it("names the provider and base URL of a request that got no answer", () => {
		for (const error of [
			"Connection error.",
			"fetch failed",
			"connect ECONNREFUSED 127.0.0.1:11434",
			"Request timed out.",
		]) {
			expect(nameEndpoint(error, model)).toBe(`Cannot reach ollama at http://localhost:11434/v1 (${error})`);
		}
		expect(nameEndpoint("Connection error.", { provider: "x", baseUrl: "" })).toBe(
			"Cannot reach x (Connection error.)",
		);
	});

	it("leaves answers from the endpoint, and messages that already name it, as they are", () => {
		for (const error of [
			"429 Rate limit reached",
			"401 invalid x-api-key",
			"Cannot reach ollama at http://localhost:11434/v1 (x)",
		]) {
			expect(nameEndpoint(error, model)).toBe(error);
		}
	});
});
