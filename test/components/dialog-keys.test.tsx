import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfirmScreen } from "../../components/confirm-screen.js";
import { LockedSessionChoice } from "../../components/locked-session-choice.js";
import { KEYS, pressAndWaitFor, renderAndWait } from "../helpers/ink.js";

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

async function locked() {
	const onChoose = vi.fn();
	const instance = await renderAndWait(<LockedSessionChoice message="Open in pid 1" onChoose={onChoose} />, (f) =>
		f.includes("Cancel"),
	);
	unmount = instance.unmount;
	return { instance, onChoose };
}

describe("the locked-session choice's keys", () => {
	it("↑/↓ move round the three choices and Enter takes the selected one", async () => {
		const { instance, onChoose } = await locked();
		await pressAndWaitFor(instance, KEYS.up, (f) => f.includes("❯ Cancel"));
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Fork it"));
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Open it read-only"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onChoose).toHaveBeenCalledWith("read-only"));
	});

	it("f, R and c choose at once; Escape cancels", async () => {
		for (const [key, choice] of [
			["f", "fork"],
			["R", "read-only"],
			["c", "cancel"],
			[KEYS.escape, "cancel"],
		] as const) {
			const { instance, onChoose } = await locked();
			instance.stdin.write(key);
			await vi.waitFor(() => expect(onChoose).toHaveBeenCalledWith(choice));
			unmount?.();
			unmount = undefined;
		}
	});

	it("takes the letter of a key typed in one read with others, and answers once", async () => {
		const { instance, onChoose } = await locked();
		instance.stdin.write("xrr");
		await vi.waitFor(() => expect(onChoose).toHaveBeenCalledWith("read-only"));
		expect(onChoose).toHaveBeenCalledTimes(1);
	});

	it("a Ctrl chord is not a choice (Ctrl+F does not fork)", async () => {
		const { instance, onChoose } = await locked();
		instance.stdin.write("\x06");
		await pressAndWaitFor(instance, KEYS.down, (f) => f.includes("❯ Open it read-only"));
		instance.stdin.write(KEYS.enter);
		await vi.waitFor(() => expect(onChoose).toHaveBeenCalled());
		expect(onChoose.mock.calls).toEqual([["read-only"]]);
	});
});

async function confirm(details: readonly string[] = ["finding 0", "finding 1", "finding 2"]) {
	const onConfirm = vi.fn();
	const onCancel = vi.fn();
	const instance = await renderAndWait(
		<ConfirmScreen
			title="Share this session?"
			details={details}
			confirmLabel="share"
			detailsLabel="what is redacted"
			onConfirm={onConfirm}
			onCancel={onCancel}
		/>,
		(f) => f.includes("Share this session?"),
	);
	unmount = instance.unmount;
	return { instance, onConfirm, onCancel };
}

describe("the confirm screen's keys", () => {
	it("Enter and y confirm; Escape and n cancel", async () => {
		for (const [key, answer] of [
			[KEYS.enter, "confirm"],
			["y", "confirm"],
			[KEYS.escape, "cancel"],
			["n", "cancel"],
		] as const) {
			const { instance, onConfirm, onCancel } = await confirm();
			instance.stdin.write(key);
			await vi.waitFor(() => expect(answer === "confirm" ? onConfirm : onCancel).toHaveBeenCalledTimes(1));
			expect(answer === "confirm" ? onCancel : onConfirm).not.toHaveBeenCalled();
			unmount?.();
			unmount = undefined;
		}
	});

	it("v shows and hides what was found", async () => {
		const { instance } = await confirm();
		await pressAndWaitFor(instance, "v", (f) => f.includes("finding 0") && f.includes("v hide"));
		await pressAndWaitFor(instance, "v", (f) => !f.includes("finding 0") && f.includes("v view"));
	});

	it("keys typed in one read all count: v then y shows the details and confirms once", async () => {
		const { instance, onConfirm } = await confirm();
		instance.stdin.write("vyy");
		await vi.waitFor(() => expect(onConfirm).toHaveBeenCalled());
		expect(onConfirm).toHaveBeenCalledTimes(1);
	});

	it("a Ctrl chord is not an answer (Ctrl+Y does not share)", async () => {
		const { instance, onConfirm, onCancel } = await confirm();
		instance.stdin.write("\x19");
		instance.stdin.write("n");
		await vi.waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1));
		expect(onConfirm).not.toHaveBeenCalled();
	});
});
