import { parseThinkingLevel, THINKING_LEVELS, thinkingLevelsFor } from "../agent/models/thinking-levels.js";
import { modelRef } from "../session/model-resolver.js";
import { words } from "./arg-spec.js";
import { failure, info, type SlashCommand } from "./types.js";

/** /thinking [level]: shows or sets the thinking level. */
export const thinkingCommand: SlashCommand = {
	name: "thinking",
	description: "Show or set the thinking level",
	spec: words([{ name: "level", optional: true, kind: "word", choices: THINKING_LEVELS }]),
	run({ session }, { positionals: [value] }) {
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
};
