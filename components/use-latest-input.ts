import { type Key, useInput, useStdin } from "ink";
import { useCallback, useContext, useEffect, useLayoutEffect, useRef } from "react";
import { INITIAL_KEY_READER, readKeys } from "../controllers/key-reader.js";
import { matchKey } from "../controllers/keymap.js";
import { QuitKeyContext } from "./quit-key.js";

/** Called once per key, in the order typed; `paste` is true for text from a bracketed paste. */
export type KeyHandler = (input: string, key: Key, paste: boolean) => void;

/** A key with no flag set, as Ink reports plain text. */
export const NO_KEY: Key = {
	upArrow: false,
	downArrow: false,
	leftArrow: false,
	rightArrow: false,
	pageDown: false,
	pageUp: false,
	home: false,
	end: false,
	return: false,
	escape: false,
	ctrl: false,
	shift: false,
	tab: false,
	backspace: false,
	delete: false,
	meta: false,
	super: false,
	hyper: false,
	capsLock: false,
	numLock: false,
};

/**
 * Ink's `useInput`, but one call per key: a run of keys that arrived in one read (a fast typist,
 * tmux send-keys, SSH, key repeat) is split and applied in order, and a bracketed paste arrives as
 * text (`paste` true), never as keys. Mouse reports never reach `handler`: the wheel goes to `onWheel`. One stable subscription calls the latest `handler`: Ink
 * re-subscribes a changed handler in a passive effect, which a fast key could beat. Under a
 * `QuitKeyContext`, Ctrl+C quits instead of reaching `handler`: each screen has this one handler.
 */
export function useLatestInput(handler: KeyHandler, isActive: boolean, onWheel?: (direction: -1 | 1) => void): void {
	const latest = useRef(handler);
	const wheel = useRef(onWheel);
	const onQuit = useContext(QuitKeyContext);
	const quit = useRef(onQuit);
	useLayoutEffect(() => {
		latest.current = handler;
		wheel.current = onWheel;
		quit.current = onQuit;
	});
	const { internal_eventEmitter: emitter } = useStdin();
	// The exact string Ink's parser emitted: `useInput` decodes a run of keys as one and strips the
	// ESC of unknown sequences, so the paste markers and the keys of a run are read from it.
	const raw = useRef("");
	const reader = useRef(INITIAL_KEY_READER);
	useEffect(() => {
		if (!isActive) return;
		const tap = (data: string) => {
			raw.current = data;
		};
		// Prepended, so it runs before every `useInput` listener of the same event.
		emitter.prependListener("input", tap);
		return () => {
			emitter.removeListener("input", tap);
		};
	}, [emitter, isActive]);
	const stable = useCallback((input: string, key: Key) => {
		const read = readKeys(reader.current, raw.current, input, key);
		reader.current = read.state;
		for (const event of read.events) {
			switch (event.kind) {
				case "paste":
					latest.current(event.text, NO_KEY, true);
					break;
				case "key": {
					const key = { ...NO_KEY, ...event.key };
					if (quit.current !== undefined && matchKey(event.input, key) === "interrupt") quit.current();
					else latest.current(event.input, key, false);
					break;
				}
				case "wheel":
					wheel.current?.(event.direction);
					break;
				case "mouse":
					break;
			}
		}
	}, []);
	useInput(stable, { isActive });
}
