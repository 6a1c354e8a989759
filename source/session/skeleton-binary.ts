import { IdList } from "./id-list.js";
import type { ColumnData } from "./skeleton-columns.js";

/** The typed columns in file order, with how many values each row has. */
const TYPED = [
	["parents", Int32Array, 1],
	["types", Uint8Array, 1],
	["times", Float64Array, 1],
	["offsets", Float64Array, 1],
	["lengths", Float64Array, 1],
	["roles", Uint8Array, 1],
	["models", Uint32Array, 1],
	["usage", Float64Array, 4],
	["kinds", Uint8Array, 1],
] as const;

type TypedKey = (typeof TYPED)[number][0];
type Meta = Omit<ColumnData, TypedKey | "oddTimestamps"> & {
	/** A damaged file's timestamp may be anything, `undefined` too, which JSON arrays would turn into null. */
	oddTimestamps: [number, { v?: unknown }][];
};

/** Bytes before the columns: format, rows, length of the JSON part, padding. */
const HEAD = 16;

const align8 = (n: number): number => (n + 7) & ~7;

function columnBytes(rows: number): { offsets: number[]; total: number } {
	const offsets: number[] = [];
	let at = 0;
	for (const [, Ctor, perRow] of TYPED) {
		offsets.push(at);
		at += align8(rows * perRow * Ctor.BYTES_PER_ELEMENT);
	}
	return { offsets, total: at };
}

/**
 * A skeleton's columns and the rest of its cache (`extra`, JSON) as one buffer: a head, the typed
 * columns' raw bytes, then the JSON. Reading it back makes views on the bytes read: no per-column
 * objects to rebuild and no copy (a copy of the columns was 39 MB more at the peak of a 5 GB warm open).
 */
export function encodeColumns(format: number, columns: ColumnData, extra: unknown): Buffer {
	const rows = columns.types.length;
	const { offsets, total } = columnBytes(rows);
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
	const { offsets, total } = columnBytes(rows);
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
	TYPED.forEach(([key, Ctor, perRow], i) => {
		typed[key] = new Ctor(store, base + offsets[i]!, rows * perRow);
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
