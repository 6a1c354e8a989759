import { afterEach, describe, expect, it, vi } from "vitest";
import { LockedSessionChoice } from "../../components/locked-session-choice.js";
import { QuitKeyContext } from "../../components/quit-key.js";
import { KEYS, pressAndWaitFor, renderAndWait } from "../helpers/ink.js";

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

describe("Ctrl+C on a screen under the app's quit key", () => {
	it("quits through the screen's own handler; the screen never sees it", async () => {
		const quit = vi.fn();
		const onChoose = vi.fn();
		const ui = await renderAndWait(
			<QuitKeyContext.Provider value={quit}>
				<LockedSessionChoice message="Open in pid 1" onChoose={onChoose} />
			</QuitKeyContext.Provider>,
			(f) => f.includes("Cancel"),
		);
		unmount = ui.unmount;
		ui.stdin.write(KEYS.ctrlC);
		await vi.waitFor(() => expect(quit).toHaveBeenCalledTimes(1));
		// the keys after it still reach the screen
		await pressAndWaitFor(ui, KEYS.down, (f) => f.includes("❯ Open it read-only"));
		expect(onChoose).not.toHaveBeenCalled();
	});

	it("a screen drawn on its own (no app around it) leaves Ctrl+C alone", async () => {
		const onChoose = vi.fn();
		const ui = await renderAndWait(<LockedSessionChoice message="Open in pid 1" onChoose={onChoose} />, (f) =>
			f.includes("Cancel"),
		);
		unmount = ui.unmount;
		ui.stdin.write(KEYS.ctrlC);
		await pressAndWaitFor(ui, KEYS.down, (f) => f.includes("❯ Open it read-only"));
		ui.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onChoose).toHaveBeenCalled());
		expect(onChoose.mock.calls).toEqual([["read-only"]]);
	});
});
