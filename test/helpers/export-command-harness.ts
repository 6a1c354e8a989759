import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach } from "vitest";
import { CommandController } from "../../controllers/command-controller.js";
import { OFFLINE_MODEL } from "../../source/agent/models/offline-provider.js";
import type { ExportCommandDeps } from "../../source/commands/export-services.js";
import { buildCommands } from "../../source/commands/registry.js";
import type { CommandContext, CommandResult } from "../../source/commands/types.js";
import type { ClipboardMethod } from "../../source/export/clipboard.js";
import type { ShareOptions, ShareResult } from "../../source/export/share.js";
import { AgentSession } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { useTempAgentDir } from "./temp-agent-dir.js";

/** What the stub exporter services record. */
export interface ExportCalls {
	exported: (string | undefined)[];
	opened: string[];
	copied: string[];
	shared: ShareOptions[];
}

/** Sessions on the offline model and stub export services for /dump, /export and /share tests. */
export function useExportCommands() {
	const temp = useTempAgentDir();
	const sessions: AgentSession[] = [];

	afterEach(async () => {
		for (const session of sessions.splice(0)) await session.dispose();
	});

	async function makeSession(persisted: boolean): Promise<AgentSession> {
		const sessionManager = persisted ? await SessionManager.create(temp.root) : SessionManager.inMemory(temp.root);
		const session = await AgentSession.create({
			sessionManager,
			models: { find: () => undefined, getApiKey: () => undefined },
			model: OFFLINE_MODEL,
		});
		sessions.push(session);
		return session;
	}

	/** Stub deps that record their calls. */
	function stubs(options: { opens?: boolean; clipboard?: ClipboardMethod | Error; share?: ShareResult | Error } = {}) {
		const calls: ExportCalls = { exported: [], opened: [], copied: [], shared: [] };
		const deps: ExportCommandDeps = {
			async exportHtml(_session, outputPath) {
				calls.exported.push(outputPath);
				const path = outputPath ?? join(temp.root, "default-export.html");
				await writeFile(path, "<html></html>");
				return path;
			},
			async share(shareOptions) {
				calls.shared.push(shareOptions);
				shareOptions.onPhase?.("Creating gist");
				if (options.share instanceof Error) throw options.share;
				return options.share ?? { kind: "cancelled" };
			},
			async openInBrowser(target) {
				calls.opened.push(target);
				return options.opens ?? true;
			},
			async shareDestination() {
				return "a secret gist on github.com/tester";
			},
			async copyToClipboard(text) {
				calls.copied.push(text);
				if (options.clipboard instanceof Error) throw options.clipboard;
				return options.clipboard ?? "clipboard";
			},
		};
		return { deps, calls };
	}

	/** Runs `/name args` as the app does: through the registry, the spec's parser and the controller. */
	async function run(
		deps: ExportCommandDeps,
		session: AgentSession,
		line: string,
		extra: Pick<CommandContext, "signal" | "setActivity"> = {},
	): Promise<CommandResult> {
		const space = line.indexOf(" ");
		const name = line.slice(1, space < 0 ? undefined : space);
		const args = space < 0 ? "" : line.slice(space + 1);
		const controller = new CommandController(
			{ session, models: { list: () => [], find: () => undefined, missingKey: () => undefined } },
			buildCommands(deps),
		);
		return controller.execute(name, args, extra);
	}

	return { temp, makeSession, stubs, run };
}

/** A notice result. */
export const notice = (level: "info" | "warning" | "error", text: string) => ({ kind: "notice", level, text });
