import { useSyncExternalStore } from "react";
import type { EarlyPickerController } from "../controllers/early-picker.js";
import { QuitKeyContext } from "./quit-key.js";
import { SessionSelector, snapshotProps } from "./session-selector/session-selector.js";
import { useTerminalSize } from "./use-terminal-size.js";

/** Props of `EarlyPicker`. */
export interface EarlyPickerProps {
	readonly controller: EarlyPickerController;
	readonly onExit: () => void;
	/** Called once the rows are on screen (the app's load waits for it, so that it does not delay them). */
	readonly onShown?: () => void;
}

/**
 * The `xcsh --resume` picker drawn while the LLM layer and the session still load (about half a
 * second), so its rows are on screen with the first frames rather than after them. Its controller
 * has listed the sessions before the first frame (`start`). A pick or Escape goes to its
 * controller, which hands over to the app.
 */
export function EarlyPicker({ controller, onExit, onShown }: EarlyPickerProps) {
	const { selector } = controller;
	const picker = useSyncExternalStore(selector.subscribe, selector.getSnapshot);
	const { columns, rows } = useTerminalSize();
	// Ctrl+C quits through the picker's own key handler: one handler on the screen.
	return (
		<QuitKeyContext.Provider value={onExit}>
			<SessionSelector
				{...snapshotProps(picker)}
				currentSessionFile={undefined}
				height={rows - 1}
				width={columns}
				isActive
				onCancel={() => controller.cancel()}
				onToggleScope={() => void selector.toggleScope()}
				onDelete={(path) => void selector.deleteSession(path)}
				onRename={(path, name) => void selector.renameSession(path, name)}
				onSelect={(path) => controller.pick(path)}
				// The app's key buffer holds keys until this screen's input handler is subscribed.
				keysHeld
				onShown={() => {
					controller.shown();
					onShown?.();
				}}
			/>
		</QuitKeyContext.Provider>
	);
}
