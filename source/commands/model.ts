import { modelRef } from "../session/model-resolver.js";
import { words } from "./arg-spec.js";
import { failure, info, type SlashCommand } from "./types.js";

/** /model [provider/id]: the picker, or a switch. */
export const modelCommand: SlashCommand = {
	name: "model",
	description: "Pick from the available models, or switch to one",
	spec: words([
		{ name: "provider/id", optional: true, kind: "word", values: ({ models }) => models.list().map((m) => m.ref) },
	]),
	run({ session, models }, { positionals: [ref] }) {
		if (!ref) {
			const choices = models
				.list()
				.map(({ ref, name, contextWindow, reasoning }) => ({ ref, name, contextWindow, reasoning }));
			return { kind: "pick-model", current: modelRef(session.model), models: choices };
		}
		const model = models.find(ref);
		if (!model) {
			const missing = models.missingKey(ref);
			// Keys are read at start-up: setting one takes a restart.
			if (missing) return failure(`${missing}: set it and restart xcsh, or type /model to list the available ones.`);
			return failure(`Unknown model: ${ref}. Type /model to list the available ones.`);
		}
		session.setModel(model);
		return info(`Model: ${modelRef(model)}`);
	},
};
