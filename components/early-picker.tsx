import { useEffect, useSyncExternalStore } from "react";
import type { EarlyResume } from "../controllers/app-controller.js";
import { matchKey } from "../controllers/keymap.js";
import type { AppRuntime } from "../controllers/runtime.js";
import { SelectorController } from "../controllers/selector-controller.js";
import { SessionSelector, snapshotProps } from "./session-selector/session-selector.js";
import { useLatestInput } from "./use-latest-input.js";
import { useTerminalSize } from "./use-terminal-size.js";

export type { EarlyResume };

/** Where the early picker lists sessions from. */
export interface EarlyPickerScope {
	readonly cwd: string;
	readonly sessionDir?: string | undefined;
}

/**
 * A picker that needs nothing from the runtime until something is picked: the sessions come from
 * the index at once, and switching or renaming waits for the runtime to finish loading.
 */
export function createEarlySelector(scope: EarlyPickerScope, runtime: Promise<AppRuntime>): SelectorController {
	return new SelectorController({
		cwd: scope.cwd,
		...(scope.sessionDir ? { sessionDir: scope.sessionDir } : {}),
		// The session being started is new and unsaved: nothing in the list is open yet.
		currentSessionFile: () => undefined,
		switchSession: async (path, options) => (await runtime).session.switchSession(path, options),
	});
}

/** Props of `EarlyPicker`. */
export interface EarlyPickerProps {
	readonly selector: SelectorController;
	/** The pick (or undefined for Escape): the app takes over from here. */
	readonly onDone: (resume: EarlyResume | undefined) => void;
	readonly onExit: () => void;
}

/**
 * The `xcsh --resume` picker drawn while the LLM layer and the session still load (about half a
 * second), so its rows are on screen with the first frames rather than after them.
 */
export function EarlyPicker({ selector, onDone, onExit }: EarlyPickerProps) {
	const picker = useSyncExternalStore(selector.subscribe, selector.getSnapshot);
	const { columns, rows } = useTerminalSize();
	useEffect(() => {
		void selector.load("project");
	}, [selector]);
	useLatestInput((value, key, paste) => {
		if (!paste && matchKey(value, key) === "interrupt") onExit();
	}, true);
	return (
		<SessionSelector
			{...snapshotProps(picker)}
			currentSessionFile={undefined}
			height={rows - 1}
			width={columns}
			isActive
			onCancel={() => onDone(undefined)}
			onToggleScope={() => void selector.toggleScope()}
			onDelete={(path) => void selector.deleteSession(path)}
			onRename={(path, name) => void selector.renameSession(path, name)}
			onSelect={(path) => {
				void selector.resumeSession(path).then((outcome) => {
					const error = selector.getSnapshot().error;
					onDone({ outcome, path, ...(error ? { error } : {}) });
				});
			}}
		/>
	);
}
