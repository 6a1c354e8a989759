/// <reference lib="dom" />

/** A JSON object from the embedded session, read defensively (a damaged file must not crash the viewer). */
export type Rec = Readonly<Record<string, unknown>>;

/** The value as an object, or undefined. */
export function rec(value: unknown): Rec | undefined {
	return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Rec) : undefined;
}

/** The value as a string, or undefined. */
export function str(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

/** The value as a finite number, or undefined. */
export function num(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The value as an array ([] otherwise). */
export function arr(value: unknown): readonly unknown[] {
	return Array.isArray(value) ? value : [];
}

/** A session entry as the viewer sees it: identity fields checked, the rest kept raw. */
export interface ViewEntry {
	/** Position in file order. */
	readonly index: number;
	readonly id: string;
	readonly parentId: string | null;
	readonly type: string;
	readonly timestamp: string;
	/** The whole entry, or in a lazy page its summary (strings cut short, no image data). */
	readonly raw: Rec;
	/** In a lazy page: the `#xcsh-chunk-N` holding the whole entry, and its position there. */
	readonly place?: EntryPlace;
}

/** Where a lazy page keeps an entry's body. */
export interface EntryPlace {
	readonly chunk: number;
	readonly at: number;
}

/** A tool definition from the agent state. */
export interface ViewTool {
	readonly name: string;
	readonly description: string;
	readonly parameters: unknown;
}

/** Everything the exporter embedded. */
export interface ViewData {
	readonly header: Rec;
	readonly entries: readonly ViewEntry[];
	readonly leafId: string | null;
	readonly systemPrompt: string | undefined;
	readonly tools: readonly ViewTool[];
}

/** The place of each raw entry of a lazy page: chunks hold consecutive entries, `sizes` of them each. */
function placesOf(sizes: readonly unknown[]): EntryPlace[] {
	const places: EntryPlace[] = [];
	sizes.forEach((size, chunk) => {
		for (let at = 0; at < (num(size) ?? 0); at++) places.push({ chunk, at });
	});
	return places;
}

function toEntries(values: readonly unknown[], places: readonly EntryPlace[] | undefined): ViewEntry[] {
	const entries: ViewEntry[] = [];
	const seen = new Set<string>();
	for (const [position, value] of values.entries()) {
		const raw = rec(value);
		const id = str(raw?.id);
		// Ids key the tree and the deep links: an entry without one (or a duplicate) cannot be shown.
		if (!raw || id === undefined || seen.has(id)) continue;
		seen.add(id);
		const parentId = str(raw.parentId) ?? null;
		const type = str(raw.type) ?? "unknown";
		const entry = { index: entries.length, id, parentId, type, timestamp: str(raw.timestamp) ?? "", raw };
		const place = places?.[position];
		entries.push(place ? { ...entry, place } : entry);
	}
	return entries;
}

function toTools(value: unknown): ViewTool[] {
	const tools: ViewTool[] = [];
	for (const item of arr(value)) {
		const tool = rec(item);
		const name = str(tool?.name);
		if (tool && name !== undefined) {
			tools.push({ name, description: str(tool.description) ?? "", parameters: tool.parameters });
		}
	}
	return tools;
}

/**
 * Parses the JSON the exporter put in `<script type="application/json" id="session-data">`: the
 * whole session, or in a lazy page (`chunkSizes` present) summaries whose bodies are in chunks.
 */
export function readViewData(doc: Document): ViewData {
	const text = doc.getElementById("session-data")?.textContent ?? "{}";
	const root = rec(JSON.parse(text)) ?? {};
	const lazy = Array.isArray(root.chunkSizes);
	const entries = toEntries(arr(root.entries), lazy ? placesOf(arr(root.chunkSizes)) : undefined);
	const leafId = str(root.leafId) ?? null;
	return {
		header: rec(root.header) ?? {},
		entries,
		leafId: leafId !== null && entries.some((e) => e.id === leafId) ? leafId : (entries.at(-1)?.id ?? null),
		systemPrompt: str(root.systemPrompt),
		tools: toTools(root.tools),
	};
}
