import { IdList } from "./id-list.js";
import type { ColumnData } from "./skeleton-columns.js";

/** The typed columns in file order, with how many values each row (of all, or of those with usage) has. */
const TYPED = [
	["parents", Int32Array, 1, "rows"],
	["types", Uint8Array, 1, "rows"],
	["times", Float64Array, 1, "rows"],
	["offsets", Float64Array, 1, "rows"],
	["lengths", Float64Array, 1, "rows"],
	["roles", Uint8Array, 1, "rows"],
	["models", Uint32Array, 1, "rows"],
	["usageRows", Int32Array, 1, "usage"],
	["usage", Float64Array, 4, "usage"],
	["kinds", Uint8Array, 1, "rows"],
] as const;

type TypedKey = (typeof TYPED)[number][0];
type Meta = Omit<ColumnData, TypedKey | "oddTimestamps"> & {
	/** A damaged file's timestamp may be anything, `undefined` too, which JSON arrays would turn into null. */
	oddTimestamps: [number, { v?: unknown }][];
};

/** Bytes before the columns: format, rows, length of the JSON part, rows with usage. */
const HEAD = 16;

const align8 = (n: number): number => (n + 7) & ~7;

function columnBytes(rows: number, usageRows: number): { offsets: number[]; total: number } {
	const offsets: number[] = [];
	let at = 0;
	for (const [, Ctor, perRow, of] of TYPED) {
		offsets.push(at);
		at += align8((of === "rows" ? rows : usageRows) * perRow * Ctor.BYTES_PER_ELEMENT);
	}
	return { offsets, total: at };
}

/** How many values a column holds. */
function valuesOf(perRow: number, of: "rows" | "usage", rows: number, usageRows: number): number {
	return (of === "rows" ? rows : usageRows) * perRow;
}

/**
 * A skeleton's columns and the rest of its cache (`extra`, JSON) as one buffer: a head, the typed
 * columns' raw bytes, then the JSON. Reading it back makes views on the bytes read: no per-column
 * objects to rebuild and no copy (a copy of the columns was 39 MB more at the peak of a 5 GB warm open).
 */
export function encodeColumns(format: number, columns: ColumnData, extra: unknown): Buffer {
	const rows = columns.types.length;
	const usageRows = columns.usageRows.length;
	const { offsets, total } = columnBytes(rows, usageRows);
	const { oddTimestamps, ids, ...rest } = columns;
	const meta: Record<string, unknown> = { ...rest, oddTimestamps: oddTimestamps.map(([i, v]) => [i, { v }]) };
	// One newline-joined string parses far faster than half a million JSON strings, and is kept as it is.
	const lines = ids.lines(rows);
	if (lines === undefined) meta.ids = ids.slice(rows);
	else meta.idLines = lines;
	for (const [key] of TYPED) delete meta[key];
	const json = Buffer.from(JSON.stringify({ meta, extra }), "utf8");
	const out = Buffer.alloc(HEAD + total + json.length);
	out.writeUInt32LE(format, 0);
	out.writeUInt32LE(rows, 4);
	out.writeUInt32LE(json.length, 8);
	out.writeUInt32LE(usageRows, 12);
	TYPED.forEach(([key], i) => {
		const array = columns[key];
		out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), HEAD + offsets[i]!);
	});
	json.copy(out, HEAD + total);
	return out;
}

/** Reads `encodeColumns`' buffer back; undefined when it is of another format or damaged. */
export function decodeColumns(format: number, bytes: Buffer): { columns: ColumnData; extra: unknown } | undefined {
	if (bytes.length < HEAD || bytes.readUInt32LE(0) !== format) return undefined;
	const rows = bytes.readUInt32LE(4);
	const jsonLength = bytes.readUInt32LE(8);
	const usageRows = bytes.readUInt32LE(12);
	if (usageRows > rows) return undefined;
	const { offsets, total } = columnBytes(rows, usageRows);
	if (bytes.length !== HEAD + total + jsonLength) return undefined;
	let parsed: { meta: Meta; extra: unknown };
	try {
		parsed = JSON.parse(bytes.toString("utf8", HEAD + total)) as { meta: Meta; extra: unknown };
	} catch {
		return undefined;
	}
	const meta = parsed?.meta as (Omit<Meta, "ids"> & { idLines?: unknown; ids?: unknown }) | undefined;
	const ids =
		typeof meta?.idLines === "string"
			? IdList.fromLines(meta.idLines, rows)
			: Array.isArray(meta?.ids) && meta.ids.length === rows && meta.ids.every((id) => typeof id === "string")
				? IdList.of(meta.ids as string[])
				: undefined;
	if (!meta || !ids) return undefined;
	delete meta.idLines;
	// Views on the buffer read (it is only a few MB more than the columns); a copy only when a
	// buffer that does not start on an 8-byte boundary would misalign them.
	const aligned = (bytes.byteOffset + HEAD) % 8 === 0;
	// A Buffer read from a file is never on a SharedArrayBuffer.
	const store = (aligned ? bytes.buffer : new ArrayBuffer(total)) as ArrayBuffer;
	if (!aligned) new Uint8Array(store).set(bytes.subarray(HEAD, HEAD + total));
	const base = aligned ? bytes.byteOffset + HEAD : 0;
	const typed: Record<string, unknown> = {};
	TYPED.forEach(([key, Ctor, perRow, of], i) => {
		typed[key] = new Ctor(store, base + offsets[i]!, valuesOf(perRow, of, rows, usageRows));
	});
	const { oddTimestamps, ...rest } = meta;
	const columns = {
		...rest,
		ids,
		...typed,
		oddTimestamps: oddTimestamps.map(([i, wrapped]) => [i, wrapped.v] as [number, unknown]),
	} as ColumnData;
	return { columns, extra: parsed.extra };
}
