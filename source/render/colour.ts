import { stripColour } from "./sgr.js";

/**
 * NO_COLOR (no-color.org): set and not empty, whatever its value, means no colour. It wins over
 * FORCE_COLOR, which chalk (and so Ink) reads but NO_COLOR it does not.
 */
export function colourEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
	const value = env.NO_COLOR;
	return value === undefined || value === "";
}

/**
 * Under NO_COLOR, takes every colour attribute out of what is written to `stream` (Ink's `color`,
 * `borderColor` and `dimColor` props go through chalk, which ignores NO_COLOR): bold, dim,
 * inverse (the editor's cursor) and underline stay. Returns the function that puts `write` back.
 * Ink writes whole frames, so an escape sequence is never split between two writes.
 */
export function filterColourOutput(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): () => void {
	if (colourEnabled(env)) return () => undefined;
	const original = stream.write;
	const filtered = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
		const next = typeof chunk === "string" ? stripColour(chunk) : chunk;
		return (original as (...args: unknown[]) => boolean).call(this, next, ...rest);
	};
	stream.write = filtered as NodeJS.WriteStream["write"];
	return () => {
		if (stream.write === filtered) stream.write = original;
	};
}
