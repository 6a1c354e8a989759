import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { type EntrySlot, isLazy, LazyEntry, SkeletonColumns } from "../session/lazy-entry.js";
import { pathToEntry } from "../session/session-context.js";
import type { EntryShape } from "../session/session-entries.js";
import type { SessionManager } from "../session/session-manager.js";
import { openSessionFile } from "../session/session-open.js";
import { FileSessionStorage } from "../session/session-storage.js";
import type { SessionHeader, StoredEntry } from "../session/types.js";
import type { ExportScope } from "./export-scope.js";
import { type ExportFormat, freeDefaultPath } from "./export-target.js";

/**
 * A session as an export reads it: the tree's shape at once, bodies one at a time (a big file's
 * bodies stay on disk until the writer reaches them, so an export holds one entry, not the file).
 */
export interface ExportSource {
	/** The session file (undefined for a session that lives in memory only). */
	readonly path: string | undefined;
	readonly header: SessionHeader;
	/** The leaf the session shows: the file's last entry, or the open session's leaf. */
	readonly leafId: string | null;
	/** Every entry's place in the tree, in file order, without bodies. */
	readonly shapes: readonly EntryShape[];
	/** The file's size in bytes (0 in memory): with the count, it picks the HTML's lazy form. */
	readonly bytes: number;
	/** One complete entry. */
	entry(id: string): StoredEntry | undefined;
	/** Every complete entry in file order, read as the loop reaches it. */
	entries(): Iterable<StoredEntry>;
	/** Releases the file (a source read from a file only). */
	close(): void;
}

/** What a scope of a source holds: how many entries, the leaf it shows, and the entries in order. */
export interface ExportSelection {
	readonly count: number;
	readonly leafId: string | null;
	entries(): Iterable<StoredEntry>;
}

/**
 * Files at most this big are read whole for an export (faster); bigger ones keep bodies on disk.
 * Measured on the generator's mix: an 8 MiB file costs ~60 MB of heap when parsed whole.
 */
export const EXPORT_LAZY_ABOVE_BYTES = 8 * 1024 * 1024;

async function sizeOf(path: string | undefined): Promise<number> {
	if (path === undefined) return 0;
	return (await stat(path).catch(() => undefined))?.size ?? 0;
}

/**
 * Reads a session file for `--export` without changing it (opening would migrate and rewrite a v1
 * file, an export migrates in memory only). A missing file is `File not found: <path>`, anything
 * else not a session `Not a session file: <path>`.
 */
export async function openExportFile(
	inputPath: string,
	cwd: string,
	lazyAboveBytes = EXPORT_LAZY_ABOVE_BYTES,
): Promise<ExportSource> {
	const path = resolve(cwd, inputPath);
	const opened = await openSessionFile(path, new FileSessionStorage(), { lazyAboveBytes });
	if (opened.kind === "missing") throw new Error(`File not found: ${path}`);
	if (opened.kind !== "loaded") throw new Error(`Not a session file: ${path}`);
	const { header, entries } = opened.loaded;
	// An export reads every entry anyway: a big session's rows are viewed as skeletons up front.
	const slots: EntrySlot[] =
		entries instanceof SkeletonColumns
			? Array.from({ length: entries.size }, (_, i) => new LazyEntry(entries, i))
			: entries;
	const bodies = opened.bodies;
	const body = (slot: (typeof slots)[number]): StoredEntry => {
		if (!isLazy(slot)) return slot;
		if (!bodies) throw new Error(`Entry ${slot.id} has no file to read it from`);
		return bodies.read(slot);
	};
	const byId = new Map(slots.map((slot) => [slot.id, slot]));
	return {
		path,
		header,
		leafId: slots.at(-1)?.id ?? null,
		shapes: slots,
		bytes: await sizeOf(path),
		entry: (id) => {
			const slot = byId.get(id);
			return slot && body(slot);
		},
		*entries() {
			for (const slot of slots) yield body(slot);
		},
		close: () => bodies?.close(),
	};
}

/** The open session as an export source: its skeleton, bodies read one at a time. */
export async function managerExportSource(manager: SessionManager): Promise<ExportSource> {
	const path = manager.getSessionFile();
	return {
		path,
		header: manager.getHeader(),
		leafId: manager.getLeafId(),
		shapes: [...manager.getSkeleton()],
		bytes: await sizeOf(path),
		entry: (id) => manager.getEntry(id),
		entries: () => manager.iterateEntries(),
		close: () => undefined,
	};
}

/** The ids root → `leafId`, from the shapes alone (a parent cycle in a damaged file stops the walk). */
export function pathIds(shapes: readonly EntryShape[], leafId: string | null): string[] {
	if (leafId === null) return [];
	const byId = new Map(shapes.map((shape) => [shape.id, shape]));
	const leaf = byId.get(leafId);
	return leaf ? pathToEntry(leaf, byId).map((shape) => shape.id) : [];
}

/** The entries of a path, read in order. */
function* pathEntries(source: ExportSource, ids: readonly string[]): Generator<StoredEntry> {
	for (const id of ids) {
		const entry = source.entry(id);
		if (entry) yield entry;
	}
}

/** The part of `source` a scope carries: the whole tree, the active branch, or one entry's path. */
export function selectScope(source: ExportSource, scope: ExportScope): ExportSelection {
	if (scope.kind === "tree")
		return { count: source.shapes.length, leafId: source.leafId, entries: () => source.entries() };
	const leaf = scope.kind === "branch" ? source.leafId : scope.entryId;
	if (scope.kind === "entry" && !source.shapes.some((shape) => shape.id === scope.entryId))
		throw new Error(`Entry ${scope.entryId} not found`);
	const ids = pathIds(source.shapes, leaf);
	return { count: ids.length, leafId: ids.at(-1) ?? null, entries: () => pathEntries(source, ids) };
}

/**
 * The `--export <file> [output]` path of an export: opens the session file without changing it,
 * names the output (`<cwd>/<input name>.<format>` when none is given, `-2`… if taken), runs
 * `write` with the source, the output and the input's path, and closes the file.
 */
export async function exportFromSessionFile<T>(
	inputPath: string,
	outputPath: string | undefined,
	cwd: string,
	request: { readonly format: ExportFormat; readonly force?: boolean },
	write: (source: ExportSource, output: string, input: string) => Promise<T>,
): Promise<T> {
	const source = await openExportFile(inputPath, cwd);
	try {
		const path = source.path ?? resolve(cwd, inputPath);
		const output =
			outputPath === undefined
				? await freeDefaultPath(cwd, basename(path, ".jsonl"), request.format, request.force)
				: resolve(cwd, outputPath);
		return await write(source, output, path);
	} finally {
		source.close();
	}
}
