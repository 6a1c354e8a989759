import { readShares, revokeShare } from "../export/share-registry.js";
import { safeLine } from "../render/safe-text.js";
import type { CliIo } from "./cli-io.js";
import { formatTable } from "./format.js";

/** `xcsh shares [revoke <id>]`: every recorded share of every session, and revoking one. */
export async function runSharesCommand(args: readonly string[], io: CliIo): Promise<number> {
	const [sub, id] = args;
	try {
		if (sub === "revoke") {
			if (!id) {
				io.stderr("Usage: xcsh shares revoke <id>\n");
				return 2;
			}
			io.stdout(`Revoked ${safeLine((await revokeShare(id)).url)}\n`);
			return 0;
		}
		if (sub) {
			io.stderr(`Unknown shares command: ${sub} (expected revoke)\n`);
			return 2;
		}
		const shares = await readShares();
		if (shares.length === 0) {
			io.stdout("Nothing has been shared yet.\n");
			return 0;
		}
		const rows = shares.map((r) => [
			r.id,
			r.sharedAt.slice(0, 16).replace("T", " "),
			r.sessionId,
			r.scope,
			r.url,
			r.revokedAt ? "revoked" : "live",
		]);
		io.stdout(`${formatTable(rows)}\n`);
		return 0;
	} catch (error) {
		io.stderr(`${safeLine(error instanceof Error ? error.message : String(error))}\n`);
		return 1;
	}
}
