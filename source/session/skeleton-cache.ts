import { createHash } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import type { TreeRowKind } from "./entry-summary.js";
import { type EntryFacts, LazyEntry, type UsageFacts } from "./lazy-entry.js";
import type { JsonlLineError, SessionHeader, StoredEntry } from "./types.js";

/** Bumped when the encoding changes: an older cache is rebuilt, never misread. */
const FORMAT = 2;

/** Bytes hashed at the end of what a cache covers (and at the start of the file). */
const CHECK_BYTES = 4096;

/** Where a skeleton cache lives; deleting it loses nothing (the next open rebuilds it). */
export interface SkeletonStore {
	read(sessionFile: string): Buffer | undefined;
	/** Atomic: a reader sees the old cache or the new one. */
	write(sessionFile: string, bytes: Buffer): Promise<void>;
}

/** What a cache says about the file it was made from, checked before it is trusted. */
export interface CoveredFile {
	ino: number;
	/** Bytes covered: up to the end of the last complete line read. */
	bytes: number;
	mtimeMs: number;
	/** sha256 of the first and of the last covered `CHECK_BYTES`. */
	headHash: string;
	tailHash: string;
}

/** A session's skeleton as the loader left it: enough to open without reading the file again. */
export interface Skeleton {
	file: CoveredFile;
	header: SessionHeader;
	skipped: JsonlLineError[];
	/** Number of the line after the last one covered. */
	nextLineNumber: number;
	entries: LazyEntry[];
}

interface Encoded {
	format: number;
	file: CoveredFile;
	header: SessionHeader;
	skipped: JsonlLineError[];
	nextLineNumber: number;
	ids: string[];
	/** Index of each entry's parent; -1: none; -2: a parent id not in the file (`danglingParents`). */
	parents: Int32Array;
	danglingParents: [number, string][];
	typeNames: string[];
	types: Uint8Array;
	timestamps: string[];
	offsets: Float64Array;
	lengths: Float64Array;
	roleNames: string[];
	/** 0: no role, else 1 + index in `roleNames`. */
	roles: Uint8Array;
	modelNames: string[];
	/** 0: no model, else 1 + index in `modelNames`. */
	models: Uint32Array;
	/** input, output, cacheRead, cost per entry (NaN input: no usage). */
	usage: Float64Array;
	kindNames: string[];
	/** 0: no kind, else 1 + index in `kindNames`. */
	kinds: Uint8Array;
	pinned: [number, StoredEntry][];
}

/** Hashes the two ends of the bytes a cache covers (what `readAt` returns there). */
export async function coverHashes(
	readAt: (position: number, length: number) => Promise<Buffer>,
	bytes: number,
): Promise<{ headHash: string; tailHash: string }> {
	const head = await readAt(0, Math.min(CHECK_BYTES, bytes));
	const tailStart = Math.max(0, bytes - CHECK_BYTES);
	const tail = await readAt(tailStart, bytes - tailStart);
	return {
		headHash: createHash("sha256").update(head).digest("hex"),
		tailHash: createHash("sha256").update(tail).digest("hex"),
	};
}

function interner(): { names: string[]; code: (name: string | undefined) => number } {
	const names: string[] = [];
	const codes = new Map<string, number>();
	return {
		names,
		code(name) {
			if (name === undefined) return 0;
			let code = codes.get(name);
			if (code === undefined) {
				names.push(name);
				code = names.length;
				codes.set(name, code);
			}
			return code;
		},
	};
}

/** Encodes a skeleton: columns of numbers and shared strings, so a million entries decode quickly. */
export function encodeSkeleton(skeleton: Skeleton): Buffer {
	const { entries } = skeleton;
	const n = entries.length;
	// Parent positions come from the entries when the session worked them out; else from an id map.
	let index: Map<string, number> | undefined;
	const parentOf = (entry: LazyEntry): number => {
		if (entry.parentId === null) return -1;
		if (entry.parentAt >= 0) return entry.parentAt;
		if (!index) {
			index = new Map();
			for (let i = 0; i < n; i++) index.set(entries[i]!.id, i);
		}
		return index.get(entry.parentId) ?? -2;
	};
	const types = interner();
	const roles = interner();
	const models = interner();
	const kinds = interner();
	const encoded: Encoded = {
		format: FORMAT,
		file: skeleton.file,
		header: skeleton.header,
		skipped: skeleton.skipped,
		nextLineNumber: skeleton.nextLineNumber,
		ids: entries.map((e) => e.id),
		parents: new Int32Array(n),
		danglingParents: [],
		typeNames: types.names,
		types: new Uint8Array(n),
		timestamps: entries.map((e) => e.timestamp),
		offsets: new Float64Array(n),
		lengths: new Float64Array(n),
		roleNames: roles.names,
		roles: new Uint8Array(n),
		modelNames: models.names,
		models: new Uint32Array(n),
		usage: new Float64Array(4 * n).fill(Number.NaN),
		kindNames: kinds.names,
		kinds: new Uint8Array(n),
		pinned: [],
	};
	for (let i = 0; i < n; i++) {
		const entry = entries[i]!;
		const parent = parentOf(entry);
		encoded.parents[i] = parent;
		if (parent === -2) encoded.danglingParents.push([i, entry.parentId!]);
		encoded.types[i] = types.code(entry.type) - 1;
		encoded.offsets[i] = entry.offset;
		encoded.lengths[i] = entry.length;
		encoded.roles[i] = roles.code(entry.facts.role);
		encoded.models[i] = models.code(entry.facts.model);
		encoded.kinds[i] = kinds.code(entry.facts.kind);
		const usage = entry.facts.usage;
		if (usage) encoded.usage.set([usage.input, usage.output, usage.cacheRead, usage.cost], 4 * i);
		if (entry.pinned && KEPT_PINNED.has(entry.type)) encoded.pinned.push([i, entry.pinned]);
	}
	return serialize(encoded);
}

/** Bodies a warm open needs without reading the file: labels and the context's state. */
const KEPT_PINNED = new Set(["label", "model_change", "thinking_level_change", "ttsr_injection", "mode_change"]);

/** Decodes a cache, or undefined when it is from another format or damaged. */
export function decodeSkeleton(bytes: Buffer): Skeleton | undefined {
	let encoded: Encoded;
	try {
		encoded = deserialize(bytes) as Encoded;
	} catch {
		return undefined;
	}
	if (encoded?.format !== FORMAT) return undefined;
	const { ids, parents, types, typeNames, timestamps, offsets, lengths, roles, roleNames, models, modelNames, usage } =
		encoded;
	const { kinds, kindNames } = encoded;
	const dangling = new Map(encoded.danglingParents);
	// Entries of one role and kind share one facts object: most entries are not assistant messages.
	const shared = new Map<number, EntryFacts>();
	const sharedFacts = (role: number, kind: number): EntryFacts => {
		const key = role * 256 + kind;
		let facts = shared.get(key);
		if (!facts) {
			const made: EntryFacts = {};
			if (role > 0) made.role = roleNames[role - 1]!;
			if (kind > 0) made.kind = kindNames[kind - 1] as TreeRowKind;
			facts = Object.freeze(made);
			shared.set(key, facts);
		}
		return facts;
	};
	const entries: LazyEntry[] = new Array(ids.length);
	for (let i = 0; i < ids.length; i++) {
		const parent = parents[i]!;
		const parentId = parent >= 0 ? ids[parent]! : parent === -1 ? null : (dangling.get(i) ?? null);
		let facts: EntryFacts;
		const role = roles[i]!;
		const model = models[i]!;
		const kind = kinds[i]!;
		if (model > 0 || !Number.isNaN(usage[4 * i]!)) {
			facts = {};
			if (role > 0) facts.role = roleNames[role - 1]!;
			if (model > 0) facts.model = modelNames[model - 1]!;
			if (kind > 0) facts.kind = kindNames[kind - 1] as TreeRowKind;
			if (!Number.isNaN(usage[4 * i]!)) {
				const u: UsageFacts = {
					input: usage[4 * i]!,
					output: usage[4 * i + 1]!,
					cacheRead: usage[4 * i + 2]!,
					cost: usage[4 * i + 3]!,
				};
				facts.usage = u;
			}
		} else facts = sharedFacts(role, kind);
		const entry = new LazyEntry(
			typeNames[types[i]!]!,
			ids[i]!,
			parentId,
			timestamps[i]!,
			offsets[i]!,
			lengths[i]!,
			facts,
		);
		// A parent not in the file ends the path like no parent at all.
		entry.parentAt = parent >= 0 ? parent : -1;
		entries[i] = entry;
	}
	for (const [i, entry] of encoded.pinned) entries[i]!.pinned = entry;
	return {
		file: encoded.file,
		header: encoded.header,
		skipped: encoded.skipped,
		nextLineNumber: encoded.nextLineNumber,
		entries,
	};
}
