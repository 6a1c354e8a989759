import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { type PtyOptions, PtyTerminal } from "./pty-terminal.js";
import { useTempAgentDir } from "./temp-agent-dir.js";

/** What `usePtyProject` gives each test. */
export interface PtyProject {
	readonly root: string;
	readonly agentDir: string;
	/** `<root>/project`, created empty before each test. */
	readonly project: string;
	/** Starts the built xcsh in the project with this test's agent dir; killed after the test. */
	open(options?: Omit<PtyOptions, "cwd" | "agentDir">): PtyTerminal;
}

/** A fresh agent dir and project folder per test, and the terminals started in them. */
export function usePtyProject(): PtyProject {
	const temp = useTempAgentDir();
	const terminals: PtyTerminal[] = [];
	const state = {
		get root() {
			return temp.root;
		},
		get agentDir() {
			return temp.agentDir;
		},
		project: "",
		open(options: Omit<PtyOptions, "cwd" | "agentDir"> = {}): PtyTerminal {
			const terminal = new PtyTerminal({ ...options, cwd: state.project, agentDir: temp.agentDir });
			terminals.push(terminal);
			return terminal;
		},
	};
	beforeEach(() => {
		state.project = join(temp.root, "project");
		mkdirSync(state.project);
	});
	afterEach(async () => {
		await Promise.all(terminals.splice(0).map((terminal) => terminal.stop()));
	});
	return state;
}
