import type { Api, Model } from "@mariozechner/pi-ai";

// What the provider SDKs and fetch say when no answer came back at all: they name neither the
// provider nor the address, so a wrong baseUrl or a stopped local server looks like a network fault.
const UNREACHABLE =
	/connection error|fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|socket hang up|request timed out/i;

/**
 * A provider error that names the endpoint: `Cannot reach <provider> at <baseUrl> (<original>)`
 * when the request never got an answer; any other message is returned unchanged.
 */
export function nameEndpoint(errorMessage: string, model: Pick<Model<Api>, "provider" | "baseUrl">): string {
	if (!UNREACHABLE.test(errorMessage) || (model.baseUrl && errorMessage.includes(model.baseUrl))) return errorMessage;
	const where = model.baseUrl ? `${model.provider} at ${model.baseUrl}` : model.provider;
	return `Cannot reach ${where} (${errorMessage})`;
}
