import { registerFauxProvider } from "@mariozechner/pi-ai";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatView } from "../../components/chat/chat-view.js";
import { ConfirmScreen } from "../../components/confirm-screen.js";
import { LockedSessionChoice } from "../../components/locked-session-choice.js";
import { SearchView } from "../../components/search-view/search-view.js";
import { SessionSelector } from "../../components/session-selector/session-selector.js";
import { StatusLine } from "../../components/status-line.js";
import { TreeView } from "../../components/tree-view/tree-view.js";
import { ChatController } from "../../controllers/chat-controller.js";
import { loadMarkdown } from "../../source/render/markdown.js";
import { AgentSession } from "../../source/session/agent-session.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { KEYS, plain, pressAndWaitFor, renderAndWait, waitForFrame } from "../helpers/ink.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

const ESC = "\u001b";
const BEL = "\u0007";
/** Retitle + clear, clipboard write, hyperlink, 8-bit CSI. */
const HOSTILE = `${ESC}]0;PWNED${BEL}${ESC}[2J ${ESC}]52;c;eA==${BEL} ${ESC}]8;;http://x/${ESC}\\ \u009b31m`;
/** How HOSTILE reads once made safe (its start: rows are cut to the width). */
const SHOWN = "␛]0;PWNED␇␛[2J ␛]52;c;eA==␇";

// Our own colours (SGR) may stay; anything else a terminal acts on must not reach the frame.
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, "g");
const CONTROL = new RegExp(
	`[${String.fromCharCode(0)}-${String.fromCharCode(9)}${String.fromCharCode(11)}-${String.fromCharCode(31)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`,
);

function expectSafe(frame: string | undefined): void {
	const rest = (frame ?? "").replace(SGR, "");
	const found = CONTROL.exec(rest);
	expect(found, found ? `control U+${found[0].charCodeAt(0).toString(16)} in:\n${rest}` : "").toBeNull();
}

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

describe("TUI views show session content with visible escapes", () => {
	const temp = useTempAgentDir();

	it("the session picker: titles, projects and the delete question", async () => {
		const now = new Date();
		const session = {
			id: "id-1",
			path: "/s/one.jsonl",
			cwd: `/w/${ESC}]0;CWD${BEL}`,
			created: now,
			modified: now,
			size: 1,
			messageCount: 2,
			firstMessage: "ignored",
			title: `title ${HOSTILE}`,
		};
		const instance = await renderAndWait(
			<SessionSelector
				sessions={[session]}
				loading={false}
				scope="all"
				height={10}
				width={120}
				isActive
				notice={`notice ${ESC}]0;N${BEL}`}
				onSelect={vi.fn()}
				onCancel={vi.fn()}
				onDelete={vi.fn()}
				onRename={vi.fn()}
				onToggleScope={vi.fn()}
			/>,
			(f) => f.includes("title"),
		);
		unmount = instance.unmount;
		const frame = instance.lastFrame();
		expectSafe(frame);
		expect(frame).toContain(`title ${SHOWN}`);
		expect(frame).toContain("/w/␛]0;CWD␇");
		expect(frame).toContain("notice ␛]0;N␇");
		await pressAndWaitFor(instance, KEYS.ctrlD, (f) => f.includes("Delete"));
		expectSafe(instance.lastFrame());
		expect(instance.lastFrame()).toContain('Delete "title ␛]0;PWNED␇');
	});

	it("the search screen: titles, projects and snippets", async () => {
		const instance = await renderAndWait(
			<SearchView
				initialQuery="pwned"
				hits={[
					{
						sessionPath: "/s/one.jsonl",
						sessionId: "s1-0123456789",
						cwd: `/w/proj${ESC}[2J`,
						entryId: "e1",
						role: "toolResult",
						timestamp: Date.now(),
						snippet: `out [PWNED] ${HOSTILE}`,
						compacted: false,
						title: `t ${ESC}]0;T${BEL}`,
					},
				]}
				hitsQuery="pwned"
				scope="project"
				searched
				refreshing={false}
				height={20}
				width={120}
				isActive
				onQueryChange={vi.fn()}
				onSelect={vi.fn()}
				onCancel={vi.fn()}
				onToggleScope={vi.fn()}
			/>,
			(f) => f.includes("PWNED"),
		);
		unmount = instance.unmount;
		const frame = instance.lastFrame();
		expectSafe(frame);
		expect(frame).toContain("t ␛]0;T␇");
		expect(frame).toContain("proj␛[2J");
		// The snippet's own brackets read as match marks (highlighted), so its pieces are checked.
		expect(plain(frame)).toContain("out PWNED ␛]0;PWNED␇␛");
		expect(frame).toContain("\\x9b31m");
	});

	it("the tree view: entries and labels", async () => {
		const sm = SessionManager.inMemory("/p");
		sm.appendMessage(userMessage(`ask ${HOSTILE}`));
		sm.appendMessage(assistantMessage("reading"));
		const result = sm.appendMessage(toolResultMessage(`output ${HOSTILE}`));
		sm.appendLabelChange(result, `label ${ESC}]0;L${BEL}`);
		const instance = await renderAndWait(
			<TreeView
				tree={sm.getSummaryTree()}
				leafId={sm.getLeafId()}
				height={10}
				width={120}
				isActive
				onNavigate={vi.fn()}
				onLabel={vi.fn()}
				onCancel={vi.fn()}
			/>,
			(f) => f.includes("output"),
		);
		unmount = instance.unmount;
		const frame = instance.lastFrame();
		expectSafe(frame);
		expect(frame).toContain(`user: ask ${SHOWN}`);
		expect(frame).toContain(`output ${SHOWN}`);
		expect(frame).toContain("[label ␛]0;L␇]");
	});

	it("the chat and status line: prompts, markdown answers, code, tool output and the session name", async () => {
		await loadMarkdown();
		const faux = registerFauxProvider({ models: [{ id: "chat-model", contextWindow: 1000 }] });
		const manager = await SessionManager.create(temp.root);
		manager.appendMessage(userMessage(`prompt ${HOSTILE}`));
		manager.appendMessage(
			assistantMessage(`**bold** ${HOSTILE}\n\n\`\`\`js\nconst x = "${ESC}]0;CODE${BEL}";\n\`\`\``),
		);
		manager.appendMessage(toolResultMessage(`tool ${HOSTILE}`));
		await manager.setSessionName(`name ${ESC}]0;NAME${BEL}`);
		const session = await AgentSession.create({
			sessionManager: manager,
			models: { find: () => undefined, getApiKey: () => "k" },
			model: faux.getModel(),
			tools: [],
		});
		const chat = new ChatController({ session, isOffline: () => false });
		try {
			const snapshot = chat.getSnapshot();
			const instance = render(
				<>
					<ChatView
						parts={{ items: snapshot.items, pending: undefined, pendingId: "p", running: [] }}
						showThinking={false}
						expandTools={false}
						width={120}
						initialHeight={40}
						anchor={undefined}
						onDraw={() => undefined}
					/>
					<StatusLine status={snapshot.status} width={120} />
				</>,
			);
			unmount = instance.unmount;
			const frame = await waitForFrame(instance, (f) => f.includes("tool"));
			expectSafe(instance.lastFrame());
			expect(frame).toContain(`prompt ${SHOWN}`);
			expect(frame).toContain(`tool ${SHOWN}`);
			expect(frame).toContain(`bold ${SHOWN}`);
			expect(frame).toContain('const x = "␛]0;CODE␇";');
			expect(frame).toContain("name ␛]0;NAME␇");
		} finally {
			chat.dispose();
			await session.dispose();
			faux.unregister();
		}
	});

	it("the locked-session choice and the confirm screen", async () => {
		const locked = await renderAndWait(
			<LockedSessionChoice message={`Open in pid 1 on host${ESC}]0;HOST${BEL}`} onChoose={vi.fn()} />,
			(f) => f.includes("Cancel"),
		);
		expectSafe(locked.lastFrame());
		expect(locked.lastFrame()).toContain("host␛]0;HOST␇");
		locked.unmount();
		const confirm = await renderAndWait(
			<ConfirmScreen
				title={`Share ${ESC}]0;TITLE${BEL}?`}
				details={[`found ${HOSTILE}`]}
				confirmLabel="share"
				detailsLabel="what is redacted"
				onConfirm={vi.fn()}
				onCancel={vi.fn()}
			/>,
			(f) => f.includes("Share"),
		);
		unmount = confirm.unmount;
		await pressAndWaitFor(confirm, "v", (f) => f.includes("found"));
		expectSafe(confirm.lastFrame());
		expect(confirm.lastFrame()).toContain("Share ␛]0;TITLE␇?");
		expect(confirm.lastFrame()).toContain(`found ${SHOWN}`);
	});
});
