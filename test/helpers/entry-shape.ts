/**
 * A session's JSONL text as entries, each id replaced by the position of its entry and the keys in
 * `blur` by their type: what two imports of one source must share (ids and import times differ).
 */
export function entryShape(text: string, blur: readonly string[] = ["importedAt"]): unknown[] {
	const entries = text
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as Record<string, unknown>);
	const position = new Map(entries.map((entry, i) => [entry.id as string, i] as const));
	return JSON.parse(
		JSON.stringify(entries, (key, value) =>
			blur.includes(key)
				? typeof value
				: typeof value === "string" && position.has(value)
					? position.get(value)
					: value,
		),
	);
}
