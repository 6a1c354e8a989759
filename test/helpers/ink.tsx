import { render } from "ink-testing-library";
import type { ReactElement } from "react";

// Built from a string: a literal ESC inside a regex literal trips the linter's control-character rule.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, "g");

/** A frame with ANSI escapes removed. */
export function plain(frame: string | undefined): string {
	return (frame ?? "").replace(ANSI, "");
}

/** Resolves once `predicate(frame)` holds (checked on every render), or rejects after `timeoutMs`. */
export async function waitForFrame(
	instance: ReturnType<typeof render>,
	predicate: (frame: string) => boolean,
	timeoutMs = 3000,
): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const frame = plain(instance.lastFrame());
		if (predicate(frame)) return frame;
		if (Date.now() > deadline) throw new Error(`frame never matched; last frame:\n${frame}`);
		// a macrotask: lets Ink flush renders and re-subscribe input handlers before the next check
		await new Promise<void>((resolve) => setImmediate(resolve));
	}
}

/** Renders and waits for the first frame that matches. */
export async function renderAndWait(element: ReactElement, predicate: (frame: string) => boolean) {
	const instance = render(element);
	await waitForFrame(instance, predicate);
	return instance;
}

export { KEYS } from "./keys.js";

/**
 * Writes input, then waits for the frame to satisfy `predicate` (never a bare sleep). A condition
 * that already holds before the key proves nothing about the key, so it is refused. After the match
 * one macrotask passes, so React's effects (and Ink's re-subscribed input handlers) have run before
 * the test presses the next key.
 */
export async function pressAndWaitFor(
	instance: ReturnType<typeof render>,
	input: string,
	predicate: (frame: string) => boolean,
): Promise<string> {
	const before = plain(instance.lastFrame());
	if (predicate(before)) {
		throw new Error(`pressAndWaitFor: the condition already holds before the key; frame:\n${before}`);
	}
	instance.stdin.write(input);
	const frame = await waitForFrame(instance, predicate);
	await new Promise<void>((resolve) => setImmediate(resolve));
	return frame;
}
