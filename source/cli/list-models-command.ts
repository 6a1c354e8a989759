import { describeModelSetup, ModelRegistry } from "../agent/models/model-registry.js";
import type { CliIo } from "./cli-io.js";
import { formatTable } from "./format.js";

/** `xcsh --list-models`: what can be used now, the default marked, and config problems. */
export async function runListModels(io: CliIo): Promise<number> {
	const registry = await ModelRegistry.load();
	for (const error of registry.configErrors()) io.stderr(`xcsh: ${error}\n`);
	const defaultModel = registry.getDefault();
	const rows = registry
		.list()
		.map((m) => [
			m.model === defaultModel ? "*" : " ",
			m.ref,
			m.source,
			m.contextWindow > 0 ? `${Math.round(m.contextWindow / 1000)}k` : "-",
			m.reasoning ? "thinking" : "",
		]);
	io.stdout(`${formatTable(rows)}\n`);
	if (registry.isOffline(defaultModel)) io.stdout(`\n${describeModelSetup()}\n`);
	return 0;
}
