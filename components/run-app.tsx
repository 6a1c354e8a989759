import { Box, render, Text } from "ink";
import { useEffect, useState } from "react";
import { enterFullScreen } from "../source/render/terminal.js";
import type { AppRuntime } from "./app.js";

/** What the TUI needs to start; the heavy parts are built by `load` after the first frame. */
export interface RunAppOptions {
	/** Builds the session, agent and controllers (imports the LLM layer: ~0.5 s). */
	load: () => Promise<AppRuntime>;
	initialScreen?: "chat" | "resume";
}

function Boot({
	options,
	onExit,
}: {
	readonly options: RunAppOptions;
	readonly onExit: (code: number, message?: string) => void;
}) {
	const [runtime, setRuntime] = useState<AppRuntime | undefined>();
	const [App, setApp] = useState<typeof import("./app.js").App | undefined>();
	useEffect(() => {
		let live = true;
		Promise.all([
			options.load(),
			import("./app.js"),
			import("../source/render/markdown.js").then((m) => m.loadMarkdown()),
		]).then(
			([loaded, module]) => {
				if (!live) return;
				setApp(() => module.App);
				setRuntime(loaded);
			},
			(error: unknown) => onExit(1, error instanceof Error ? error.message : String(error)),
		);
		return () => {
			live = false;
		};
	}, [options, onExit]);
	if (!runtime || !App) {
		return (
			<Box borderStyle="round" borderColor="cyan" paddingX={1}>
				<Text>
					<Text bold color="cyan">
						xcsh
					</Text>{" "}
					<Text dimColor>starting…</Text>
				</Text>
			</Box>
		);
	}
	return (
		<App
			runtime={runtime}
			onExit={() => onExit(0)}
			{...(options.initialScreen ? { initialScreen: options.initialScreen } : {})}
		/>
	);
}

/**
 * Runs the full-screen UI until the person quits. The first frame is drawn before the session and
 * the LLM layer load; the terminal is restored on exit, crash and signals.
 */
export async function runApp(options: RunAppOptions): Promise<number> {
	const restore = enterFullScreen();
	let runtime: AppRuntime | undefined;
	let exitCode = 0;
	let exitMessage: string | undefined;
	const wrapped: RunAppOptions = {
		...options,
		load: async () => {
			runtime = await options.load();
			return runtime;
		},
	};
	const instance = render(
		<Boot
			options={wrapped}
			onExit={(code, message) => {
				exitCode = code;
				exitMessage = message;
				instance.unmount();
			}}
		/>,
		{ exitOnCtrlC: false, patchConsole: true },
	);
	// The ready marker end-to-end tests wait for is the welcome screen itself; nothing extra is printed.
	await instance.waitUntilExit();
	try {
		await runtime?.dispose();
	} finally {
		restore();
	}
	if (exitMessage) process.stderr.write(`xcsh: ${exitMessage}\n`);
	return exitCode;
}
