import { failure, info, messageOf, type SlashCommand } from "./types.js";

/** /compact [instructions]: summarise older context. */
export const compactCommand: SlashCommand = {
	name: "compact",
	description: "Summarise older context to free the context window",
	// Instructions are prose ("don't drop the tests"): never split into words.
	spec: { kind: "text", name: "instructions", optional: true },
	async run({ session }, { text }) {
		try {
			const result = await session.compact(text || undefined);
			return info(`Compacted: the summary now stands in for ${result.tokensBefore.toLocaleString("en-US")} tokens`);
		} catch (error) {
			return failure(messageOf(error));
		}
	},
};
