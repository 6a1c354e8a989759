import { type Api, type Model, registerFauxProvider } from "@mariozechner/pi-ai";
import { afterEach, beforeEach } from "vitest";
import { CommandController } from "../../controllers/command-controller.js";
import type { ExtensionRunner } from "../../source/agent/extensions/runner.js";
import type { ModelInfo } from "../../source/agent/models/model-registry.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import { AgentSession, modelRef } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "./temp-agent-dir.js";

function infoOf(model: Model<Api>): ModelInfo {
	return {
		ref: modelRef(model),
		provider: model.provider,
		id: model.id,
		name: model.name,
		source: "builtin",
		contextWindow: model.contextWindow,
		reasoning: model.reasoning,
		model,
	};
}

/**
 * A session on a scripted (faux) model that cannot think, beside the offline model, and a
 * `CommandController` over the built-in commands; `anthropic/x` is a model whose key is missing.
 */
export function useCommandHarness() {
	const temp = useTempAgentDir();
	const state = {} as {
		faux: ReturnType<typeof registerFauxProvider>;
		session: AgentSession;
		controller: CommandController;
	};

	async function setup(extensions?: ExtensionRunner, manager?: SessionManager): Promise<void> {
		const models = [state.faux.getModel(), OFFLINE_MODEL];
		state.session = await AgentSession.create({
			sessionManager: manager ?? (await SessionManager.create(temp.root)),
			models: { find: (ref) => models.find((m) => modelRef(m) === ref), getApiKey: () => "k" },
			model: state.faux.getModel(),
			...(extensions ? { extensions } : {}),
		});
		state.controller = new CommandController({
			session: state.session,
			models: {
				list: () => models.map(infoOf),
				find: (ref) => models.find((m) => modelRef(m) === ref),
				missingKey: (ref) => (ref === "anthropic/x" ? "anthropic/x needs ANTHROPIC_API_KEY" : undefined),
			},
		});
	}

	beforeEach(async () => {
		state.faux = registerFauxProvider({ models: [{ id: "cmd-model", reasoning: false }] });
		await setup();
	});
	afterEach(async () => {
		await state.session.dispose();
		state.faux.unregister();
	});

	/** Builds the session again (after disposing the current one), with extensions or another manager. */
	async function rebuild(extensions?: ExtensionRunner, manager?: SessionManager): Promise<void> {
		await state.session.dispose();
		await setup(extensions, manager);
	}

	return { temp, state, rebuild };
}
