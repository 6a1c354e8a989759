const RESET = "\u001b[0m";
const STYLES: readonly (readonly [RegExp, string])[] = [
	[/^(diff --git|index |--- |\+\+\+ |new file|deleted file|old mode|new mode|similarity|rename )/, "\u001b[1m"],
	[/^@@/, "\u001b[36m"],
	[/^\+/, "\u001b[32m"],
	[/^-/, "\u001b[31m"],
];

/** Colours a unified diff the way git does (headers bold, hunks cyan, additions green, removals red). */
export function colourDiff(diff: string): string {
	return diff
		.split("\n")
		.map((line) => {
			const style = STYLES.find(([pattern]) => pattern.test(line));
			return style && line.length > 0 ? `${style[1]}${line}${RESET}` : line;
		})
		.join("\n");
}
