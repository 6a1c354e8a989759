import { describe, expect, it } from "vitest";
import { useCommandHarness } from "../helpers/command-harness.js";
import { useExportCommands } from "../helpers/export-command-harness.js";

describe("/help", () => {
	const { state } = useCommandHarness();
	const { makeSession, stubs, run } = useExportCommands();

	it("lists every command with its usage, and the keys", async () => {
		const help = await state.controller.execute("help", "");
		expect(help).toMatchObject({ kind: "notice", level: "info" });
		const text = (help as { text: string }).text;
		expect(text).toContain("/model [provider/id] — Pick from the available models, or switch to one");
		expect(text).toContain("/thinking [off|minimal|low|medium|high|xhigh] — Show or set the thinking level");
		expect(text).toContain("/session [save | delete [--force]] — Show this session;");
		expect(text).toContain("/help [command] — Show the commands and keys, or how to use one command");
		expect(text).toContain("/quit (also /exit) — Leave xcsh");
		expect(text).toContain("Ctrl+T show or hide thinking");
		expect(text).toContain("PgUp/PgDn a page · Shift+↑/↓ a line · mouse wheel");
		expect(text).toContain("Ctrl+O show or clip tool output · Shift+drag selects text");
	});

	it("/help <command> prints the usage from the spec, each flag and sub-command", async () => {
		const { deps } = stubs();
		const session = await makeSession(false);
		expect(await run(deps, session, "/help export")).toEqual({
			kind: "notice",
			level: "info",
			text: [
				"Usage: /export [path] [--tree | --branch | --entry <id>] [--format html|md|json|pi|atif|openai-sft] [--focused] [--collapse-tools] [--system] [--thinking] [--no-redact] [--force]",
				"Export the session to an HTML file and open it",
				"  --tree  every branch of the session",
				"  --branch  the active branch only",
				"  --entry <id>  the path from the root to one entry (ids in /tree)",
				"  --format html|md|json|pi|atif|openai-sft  the file's format (default: from the path's extension, else html); pi: a session pi reads fully, atif: trajectories, openai-sft: fine-tuning lines",
				"  --focused  Markdown and JSON: only the messages, without tool calls and results",
				"  --collapse-tools  HTML: tool calls start collapsed",
				"  --system  openai-sft: put the system prompt first",
				"  --thinking  openai-sft: keep the reasoning (as reasoning_content)",
				"  --no-redact  keep secrets as they are (they are redacted by default)",
				"  --force  replace an existing file",
			].join("\n"),
		});
		expect(await run(deps, session, "/help /shares")).toMatchObject({
			text: [
				"Usage: /shares [revoke <id>]",
				"List this session's shares, or revoke one",
				"  revoke <id>  Delete a share (its gist) and mark it revoked",
			].join("\n"),
		});
		expect(await run(deps, session, "/help exit")).toMatchObject({ text: "Usage: /quit\nLeave xcsh" });
		expect(await run(deps, session, "/help nope")).toEqual({
			kind: "notice",
			level: "error",
			text: "Unknown command: /nope. Type /help for the list.",
		});
	});

	it("Tab after /help lists the commands", () => {
		expect(state.controller.completeArgument("/help thi")).toEqual({ insert: "nking ", candidates: [] });
	});
});
