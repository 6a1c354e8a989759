import { readShares, revokeShare } from "../export/share-registry.js";
import { words } from "./arg-spec.js";
import { failure, info, messageOf, type SlashCommand } from "./types.js";

/** /shares [revoke <id>]: this session's shares, and revoking one. */
export const sharesCommand: SlashCommand = {
	name: "shares",
	description: "List this session's shares, or revoke one",
	spec: {
		kind: "subcommands",
		optional: true,
		subcommands: [
			{
				name: "revoke",
				description: "Delete a share (its gist) and mark it revoked",
				args: words([{ name: "id", optional: false, kind: "word" }]),
			},
		],
	},
	async run({ session }, { subcommand, positionals: [id] }) {
		try {
			if (subcommand === "revoke" && id) {
				const revoked = await revokeShare(id);
				return info(`Revoked ${revoked.url}`);
			}
			const mine = (await readShares()).filter((r) => r.sessionId === session.sessionManager.getSessionId());
			if (mine.length === 0) return info("This session has not been shared");
			return info(
				mine
					.map(
						(r) =>
							`${r.id}  ${r.sharedAt.slice(0, 16).replace("T", " ")}  ${r.scope}  ${r.url}${r.revokedAt ? "  (revoked)" : ""}`,
					)
					.join("\n"),
			);
		} catch (error) {
			return failure(messageOf(error));
		}
	},
};
