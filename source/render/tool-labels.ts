/** A compact label for a tool call: `read src/a.ts:1-40`, `$ npm test`, `edit src/b.ts`. */
export function toolCallLabel(name: string, args: Record<string, unknown>): string {
	const path = typeof args.path === "string" ? args.path : undefined;
	switch (name) {
		case "bash":
			return `$ ${typeof args.command === "string" ? args.command.split("\n")[0] : ""}`;
		case "read": {
			if (!path) return "read";
			const offset = typeof args.offset === "number" ? args.offset : undefined;
			const limit = typeof args.limit === "number" ? args.limit : undefined;
			if (offset === undefined && limit === undefined) return `read ${path}`;
			const start = offset ?? 1;
			return limit === undefined ? `read ${path}:${start}-` : `read ${path}:${start}-${start + limit - 1}`;
		}
		default:
			return path ? `${name} ${path}` : name;
	}
}

/** The first `maxLines` lines of a tool's output, and how many more there are. */
export function clipLines(text: string, maxLines: number): { lines: string[]; hidden: number } {
	const all = text.replace(/\s+$/, "").split("\n");
	if (all.length === 1 && all[0] === "") return { lines: [], hidden: 0 };
	return { lines: all.slice(0, maxLines), hidden: Math.max(0, all.length - maxLines) };
}
