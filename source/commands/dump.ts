import { activePathExceeds, dumpTooBig } from "../export/dump-size.js";
import { loadRedactionConfig } from "../redaction/config.js";
import { redactText } from "../redaction/redact.js";
import { NO_ARGS } from "./arg-spec.js";
import type { ExportCommandDeps } from "./export-services.js";
import { failure, info, messageOf, type SlashCommand, warning } from "./types.js";

/** /dump inside a tmux that ignores a pane's OSC 52 (its default `set-clipboard external`). */
const TMUX_DROPS_OSC52 =
	"Not copied: tmux drops the clipboard sequence (OSC 52) unless set-clipboard is on; run tmux set -g set-clipboard on, then /dump again";

/** /dump: the whole session as redacted text on the clipboard. */
export function dumpCommand(deps: ExportCommandDeps): SlashCommand {
	return {
		name: "dump",
		description: "Copy the whole session as text to the clipboard",
		spec: NO_ARGS,
		async run({ session }) {
			// Checked on the skeleton before the text is built: building it would read every body.
			if (activePathExceeds(session.sessionManager)) return warning(dumpTooBig());
			const raw = session.formatSessionAsText();
			if (!raw) return info("No messages to dump yet");
			const { text, findings } = redactText(raw, { config: loadRedactionConfig().config });
			const note =
				findings.length === 0 ? "" : ` (${findings.length} ${findings.length === 1 ? "secret" : "secrets"} redacted)`;
			try {
				const method = await deps.copyToClipboard(text);
				switch (method) {
					case "clipboard":
						return info(`Session copied to the clipboard${note}`);
					case "osc52":
						return info(`Session copied to the clipboard (OSC 52)${note}`);
					case "osc52-dropped-by-tmux":
						return warning(`${TMUX_DROPS_OSC52}${note}`);
				}
			} catch (error) {
				return failure(`Could not copy to the clipboard: ${messageOf(error)}`);
			}
		},
	};
}
