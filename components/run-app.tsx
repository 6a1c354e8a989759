import { Box, render, Text } from "ink";
import { type ReactNode, useEffect, useState, useSyncExternalStore } from "react";
import type { EarlyPickerController, EarlyPickerState } from "../controllers/early-picker.js";
import type { AppRuntime } from "../controllers/runtime.js";
import { rowPainterFor } from "../source/render/row-painter.js";
import { enterFullScreen } from "../source/render/terminal.js";
import { RowPainterContext } from "./chat/row-painter-context.js";
import type { EarlyPickerProps } from "./early-picker.js";
import { useKeyBuffer } from "./use-key-buffer.js";

/** What the TUI needs to start; the heavy parts are built by `load` after the first frame. */
export interface RunAppOptions {
	/**
	 * Builds the session, agent and controllers (imports the LLM layer: ~0.5 s); an early picker
	 * is handed to it so the composition root can attach the app it builds.
	 */
	load: (earlyPicker: EarlyPickerController | undefined) => Promise<AppRuntime>;
	initialScreen?: "chat" | "resume";
	/** Builds the `xcsh --resume` picker drawn from the session index while `load` runs. */
	earlyPicker?: () => Promise<EarlyPickerController>;
}

interface EarlyPickerModule {
	Picker: (props: EarlyPickerProps) => ReactNode;
	controller: EarlyPickerController;
}

/** Loads the early picker's view and builds its controller once, when there is one to show. */
function useEarlyPicker(create: (() => Promise<EarlyPickerController>) | undefined) {
	const [early, setEarly] = useState<EarlyPickerModule | undefined>();
	useEffect(() => {
		if (!create) return;
		let live = true;
		void Promise.all([import("./early-picker.js"), create()]).then(([module, controller]) => {
			if (!live) return;
			// The index's rows are listed now, so the picker's first frame shows them.
			controller.start();
			setEarly({ Picker: module.EarlyPicker, controller });
		});
		return () => {
			live = false;
		};
	}, [create]);
	return early;
}

const noSubscription = () => () => undefined;
const noState = (): EarlyPickerState | undefined => undefined;

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
	onExit,
}: {
	readonly options: RunAppOptions;
	readonly onExit: (code: number, message?: string) => void;
}) {
	const [runtime, setRuntime] = useState<AppRuntime | undefined>();
	const [App, setApp] = useState<typeof import("./app.js").App | undefined>();
	const early = useEarlyPicker(options.earlyPicker);
	const earlyState = useSyncExternalStore(
		early?.controller.subscribe ?? noSubscription,
		early?.controller.getSnapshot ?? noState,
	);
	// With an early picker, the (CPU-heavy) load starts once the picker's rows are on screen: its
	// module compiling would otherwise hold the rows' frame back.
	// A pick or Escape before that needs the app at once.
	const [pickerShown, setPickerShown] = useState(false);
	const waitForPicker =
		options.earlyPicker !== undefined && !pickerShown && (early === undefined || earlyState?.kind === "picking");
	useEffect(() => {
		if (waitForPicker) return;
		let live = true;
		Promise.all([
			options.load(early?.controller),
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
	}, [options, onExit, waitForPicker, early]);
	// Until the early picker's controller has handed over to the app, the picker stays on screen.
	const picking = options.earlyPicker !== undefined && earlyState?.kind !== "done";
	// Keys typed while only the "starting…" box is up wait for the screen that follows it.
	useKeyBuffer(picking ? early === undefined : runtime === undefined || App === undefined);
	if (picking) {
		if (!early) return <StartingBox />;
		return <early.Picker controller={early.controller} onExit={() => onExit(0)} onShown={() => setPickerShown(true)} />;
	}
	if (!runtime || !App) return <StartingBox />;
	// After an early picker, the app is on whatever its pick led to; otherwise on the first screen asked for.
	const first = options.earlyPicker === undefined ? options.initialScreen : undefined;
	return <App runtime={runtime} onExit={() => onExit(0)} {...(first ? { initialScreen: first } : {})} />;
}

/**
 * Runs the full-screen UI until the person quits. The first frame is drawn before the session and
 * the LLM layer load; the terminal is restored on exit, crash and signals.
 */
export async function runApp(options: RunAppOptions): Promise<number> {
	const painter = rowPainterFor(process.stdout);
	const restore = enterFullScreen(process.stdout, painter);
	// Raw at once, before Ink reads anything: keys typed while the app loads are kept as typed
	// (no echo, Enter stays Enter) until a screen takes them; see useKeyBuffer.
	if (process.stdin.isTTY) process.stdin.setRawMode(true);
	let runtime: AppRuntime | undefined;
	let exitCode = 0;
	let exitMessage: string | undefined;
	const wrapped: RunAppOptions = {
		...options,
		load: async (earlyPicker) => {
			runtime = await options.load(earlyPicker);
			return runtime;
		},
	};
	const instance = render(
		<RowPainterContext.Provider value={painter}>
			<Boot
				options={wrapped}
				onExit={(code, message) => {
					exitCode = code;
					exitMessage = message;
					instance.unmount();
				}}
			/>
		</RowPainterContext.Provider>,
		// A frame no longer holds the transcript (the row painter draws it), so it is cheap: Ink's
		// throttle, which can hold a keystroke back for up to 1000 / maxFps ms, is kept short.
		{ exitOnCtrlC: false, patchConsole: true, maxFps: 120 },
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
