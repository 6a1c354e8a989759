import { useEffect, useState } from "react";

/**
 * False on a component's first render, true once its effects (Ink's `useInput` subscription among
 * them) have run. Ink draws a frame before effects run, so a key pressed the moment a screen
 * appears could reach no handler and be lost; screens show their choices only once this is true.
 */
export function useInputReady(): boolean {
	const [ready, setReady] = useState(false);
	useEffect(() => setReady(true), []);
	return ready;
}
