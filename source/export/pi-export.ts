import { BLOB_REF_PREFIX } from "../session/blob-store.js";
import { CURRENT_SESSION_VERSION, type SessionHeader, type StoredEntry } from "../session/types.js";

/** What converting a session for pi found that the reader should know. */
export interface PiExportStats {
	/** Images whose blob was missing from the store: written as a text note instead of bad base64. */
	missingImages: number;
}

/** The `customType` a model change of a non-default role is kept under (pi has one model only). */
export const PI_ROLE_MODEL_CHANGE = "xcsh.model_change";

type Block = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Image blocks still holding a `blob:sha256:` reference (the loader resolves the ones it finds, so
 * these are missing from the store) become a text note: pi would send the reference as base64.
 */
function withoutBlobRefs(content: unknown, stats: PiExportStats): unknown {
	if (!Array.isArray(content)) return content;
	let changed = false;
	const blocks = content.map((block: unknown) => {
		if (!isRecord(block) || block.type !== "image" || typeof block.data !== "string") return block;
		if (!block.data.startsWith(BLOB_REF_PREFIX)) return block;
		changed = true;
		stats.missingImages++;
		return { type: "text", text: `[image missing from the blob store: ${block.data}]` } satisfies Block;
	});
	return changed ? blocks : content;
}

/** "provider/modelId" → pi's two fields; undefined when there is no provider part. */
function splitModel(model: string): { provider: string; modelId: string } | undefined {
	const slash = model.indexOf("/");
	if (slash <= 0 || slash === model.length - 1) return undefined;
	return { provider: model.slice(0, slash), modelId: model.slice(slash + 1) };
}

/**
 * One entry as pi 0.73 reads it. `model_change` becomes `{provider, modelId}` (pi's context takes
 * its model from there); one of another role (`smol`, …) would change pi's only model, so it is kept
 * as a `custom` entry, which pi's context ignores. Images keep their inline base64.
 */
export function piEntry(entry: StoredEntry, stats: PiExportStats): StoredEntry {
	const record = entry as Record<string, unknown>;
	switch (entry.type) {
		case "model_change": {
			const { model, role, provider, modelId, ...rest } = record;
			const split = typeof model === "string" ? splitModel(model) : undefined;
			const defaultRole = role === undefined || role === "default";
			if (split && defaultRole) return { ...rest, ...split } as StoredEntry;
			if (model === undefined && typeof provider === "string" && typeof modelId === "string" && defaultRole)
				return { ...rest, provider, modelId } as StoredEntry;
			return {
				type: "custom",
				id: entry.id,
				parentId: entry.parentId,
				timestamp: entry.timestamp,
				customType: PI_ROLE_MODEL_CHANGE,
				data: { model, role, provider, modelId },
			} as StoredEntry;
		}
		case "message": {
			const message = record.message;
			if (!isRecord(message)) return entry;
			const content = withoutBlobRefs(message.content, stats);
			return content === message.content ? entry : ({ ...record, message: { ...message, content } } as StoredEntry);
		}
		case "custom_message": {
			const content = withoutBlobRefs(record.content, stats);
			return content === record.content ? entry : ({ ...record, content } as StoredEntry);
		}
		case "compaction":
		case "branch_summary":
			// pi names the extension flag `fromHook`.
			return record.fromExtension === undefined ? entry : { ...entry, fromHook: record.fromExtension };
		default:
			return entry;
	}
}

/** The header as pi reads it: version 3 (pi would migrate, and rewrite, an older one), xcsh's extra fields kept. */
export function piHeader(header: SessionHeader): SessionHeader {
	return { ...header, version: CURRENT_SESSION_VERSION };
}

/** The lines of a pi session file: the header, then each entry as `piEntry` makes it. */
export function* piLines(
	header: SessionHeader,
	entries: Iterable<StoredEntry>,
	stats: PiExportStats,
): Generator<string> {
	yield `${JSON.stringify(piHeader(header))}\n`;
	for (const entry of entries) yield `${JSON.stringify(piEntry(entry, stats))}\n`;
}
