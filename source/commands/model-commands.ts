import { parseThinkingLevel, thinkingLevelsFor } from "../agent/models/thinking-levels.js";
import { modelRef } from "../session/model-resolver.js";
import { failure, info, type SlashCommand } from "./types.js";

/** /model and /thinking. */
export const modelCommands: SlashCommand[] = [
	{
		name: "model",
		description: "Pick from the available models, or switch to one",
		args: "[provider/id]",
		run({ session, models }, args) {
			const ref = args.trim();
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
	},
	{
		name: "thinking",
		description: "Show or set the thinking level",
		args: "[off|minimal|low|medium|high|xhigh]",
		run({ session }, args) {
			const value = args.trim();
			if (!value) {
				return info(
					`Thinking: ${session.thinkingLevel} (available for this model: ${thinkingLevelsFor(session.model).join(", ")})`,
				);
			}
			const parsed = parseThinkingLevel(value, "/thinking");
			if (!parsed.ok) return failure(parsed.error);
			session.setThinkingLevel(parsed.level);
			if (session.thinkingLevel !== parsed.level)
				return info(`${modelRef(session.model)} cannot think: thinking stays off`);
			return info(`Thinking: ${session.thinkingLevel}`);
		},
	},
];
