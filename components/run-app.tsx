import { Box, render, Text } from "ink";
import { type ReactNode, useEffect, useState } from "react";
import type { AppRuntime } from "../controllers/runtime.js";
import type { SelectorController } from "../controllers/selector-controller.js";
import { enterFullScreen } from "../source/render/terminal.js";
import type { EarlyPickerProps, EarlyPickerScope, EarlyResume } from "./early-picker.js";
import { useKeyBuffer } from "./use-key-buffer.js";

/** What the TUI needs to start; the heavy parts are built by `load` after the first frame. */
export interface RunAppOptions {
	/** Builds the session, agent and controllers (imports the LLM layer: ~0.5 s). */
	load: () => Promise<AppRuntime>;
	initialScreen?: "chat" | "resume";
	/** With `initialScreen: "resume"`: draw the picker from the session index while `load` runs. */
	earlyPicker?: EarlyPickerScope;
}

interface EarlyPickerModule {
	Picker: (props: EarlyPickerProps) => ReactNode;
	selector: SelectorController;
}

/** Loads the early picker's module and its controller once, when there is one to show. */
function useEarlyPicker(scope: EarlyPickerScope | undefined, runtime: Promise<AppRuntime>) {
	const [early, setEarly] = useState<EarlyPickerModule | undefined>();
	useEffect(() => {
		if (!scope) return;
		let live = true;
		void import("./early-picker.js").then((module) => {
			if (live) setEarly({ Picker: module.EarlyPicker, selector: module.createEarlySelector(scope, runtime) });
		});
		return () => {
			live = false;
		};
	}, [scope, runtime]);
	return early;
}

function StartingBox() {
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

function Boot({
	options,
	runtimeReady,
	onExit,
}: {
	readonly options: RunAppOptions;
	readonly runtimeReady: Promise<AppRuntime>;
	readonly onExit: (code: number, message?: string) => void;
}) {
	const [runtime, setRuntime] = useState<AppRuntime | undefined>();
	const [App, setApp] = useState<typeof import("./app.js").App | undefined>();
	const early = useEarlyPicker(options.earlyPicker, runtimeReady);
	// Until the early picker is left, it stays on screen (even once the app has loaded).
	const [handover, setHandover] = useState<{ resume: EarlyResume | undefined } | undefined>();
	// With an early picker, the (CPU-heavy) load starts once the picker is on screen, not before.
	const waitForPicker = options.earlyPicker !== undefined && early === undefined;
	useEffect(() => {
		if (waitForPicker) return;
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
	}, [options, onExit, waitForPicker]);
	const picking = options.earlyPicker !== undefined && handover === undefined;
	// Keys typed while only the "starting…" box is up wait for the screen that follows it.
	useKeyBuffer(picking ? early === undefined : runtime === undefined || App === undefined);
	if (picking) {
		if (!early) return <StartingBox />;
		return (
			<early.Picker selector={early.selector} onDone={(resume) => setHandover({ resume })} onExit={() => onExit(0)} />
		);
	}
	if (!runtime || !App) return <StartingBox />;
	if (handover) {
		return (
			<App
				runtime={runtime}
				onExit={() => onExit(0)}
				{...(handover.resume ? { initialResume: handover.resume } : {})}
			/>
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
	// Raw at once, before Ink reads anything: keys typed while the app loads are kept as typed
	// (no echo, Enter stays Enter) until a screen takes them; see useKeyBuffer.
	if (process.stdin.isTTY) process.stdin.setRawMode(true);
	let runtime: AppRuntime | undefined;
	let exitCode = 0;
	let exitMessage: string | undefined;
	let ready: (loaded: AppRuntime) => void = () => undefined;
	// Never settles when loading fails: the app exits with the error instead.
	const runtimeReady = new Promise<AppRuntime>((resolve) => {
		ready = resolve;
	});
	const wrapped: RunAppOptions = {
		...options,
		load: async () => {
			runtime = await options.load();
			ready(runtime);
			return runtime;
		},
	};
	const instance = render(
		<Boot
			options={wrapped}
			runtimeReady={runtimeReady}
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
