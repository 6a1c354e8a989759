import { normalizeMessage } from "../session/message-shape.js";
import {
	IMPORT_CUSTOM_TYPE,
	type ImportPlan,
	type ParseOptions,
	type PlanBody,
	type PlanItem,
	SkipError,
} from "./import-plan.js";
import { isoTime, isRecord, parseSourceLines, str } from "./source-lines.js";

/*
 * pi-coding-agent sessions (`~/.pi/agent/sessions/--<cwd>--/*.jsonl`): xcsh's own format, so each
 * entry maps to its native kind. v1 files have no ids: entries chain in file order, keyed by line.
 * Entries xcsh has no kind for are kept raw.
 */

const SUPPORTED_VERSIONS = new Set([1, 2, 3]);

/**
 * The text of a `system` (or `developer`) message, which newer pi (0.8x) writes as a message entry
 * (`content`, named `sections`, the tools it adds) and sends where it stands in the context, first
 * in a new session (`sessionEntryToContextMessages` passes every message role through). xcsh has no
 * such role: it becomes context sent as it is (a hidden custom message), the whole message in its
 * details. Undefined for any other message.
 */
function systemText(message: unknown): string | undefined {
	if (!isRecord(message) || (message.role !== "system" && message.role !== "developer")) return undefined;
	const content = Array.isArray(message.content)
		? message.content.map((block: unknown) => (isRecord(block) ? block.text : undefined))
		: [message.content];
	const sections = isRecord(message.sections) ? Object.values(message.sections) : [];
	const parts = [...content, ...sections].filter((part): part is string => typeof part === "string" && part !== "");
	return parts.join("\n\n");
}

function bodyOf(entry: Record<string, unknown>, keyOf: (id: unknown) => string | undefined): PlanBody {
	switch (entry.type) {
		case "message": {
			const system = systemText(entry.message);
			if (system !== undefined) return { kind: "hidden", content: system, details: { message: entry.message } };
			const message = normalizeMessage(entry.message);
			if (message) return { kind: "message", message };
			break;
		}
		case "model_change": {
			const model =
				str(entry.model) ??
				(typeof entry.provider === "string" && typeof entry.modelId === "string"
					? `${entry.provider}/${entry.modelId}`
					: undefined);
			if (model) return { kind: "model", model };
			break;
		}
		case "thinking_level_change":
			if (typeof entry.thinkingLevel === "string") return { kind: "thinking", level: entry.thinkingLevel };
			break;
		case "compaction": {
			const kept = keyOf(entry.firstKeptEntryId);
			return {
				kind: "compaction",
				summary: str(entry.summary) ?? "",
				firstKeptKey: kept ?? null,
				tokensBefore: typeof entry.tokensBefore === "number" ? entry.tokensBefore : 0,
				details: entry.details,
			};
		}
		case "branch_summary":
			return { kind: "branchSummary", summary: str(entry.summary) ?? "", details: entry.details };
		case "label": {
			const target = keyOf(entry.targetId);
			if (target) return { kind: "label", targetKey: target, label: str(entry.label) };
			break;
		}
		case "custom":
			return { kind: "custom", customType: str(entry.customType) ?? IMPORT_CUSTOM_TYPE, data: entry.data };
		case "custom_message":
			if (typeof entry.content === "string" || Array.isArray(entry.content))
				return { kind: "hidden", content: entry.content as string, details: entry.details };
			break;
	}
	return { kind: "custom", customType: IMPORT_CUSTOM_TYPE, data: entry };
}

/** Reads a pi session (v1 linear, v2/v3 tree) into a plan. */
export function parsePi(text: string, sourcePath: string, options: ParseOptions): ImportPlan {
	const { lines, badLines } = parseSourceLines(text);
	const header = lines[0]?.value;
	if (header?.type !== "session" || typeof header.id !== "string")
		throw new SkipError("no pi session header on the first line");
	const version = typeof header.version === "number" ? header.version : 1;
	if (!SUPPORTED_VERSIONS.has(version))
		throw new SkipError(`pi session version ${version} is not supported (1 to 3 are)`);
	const linear = version < 2;
	const items: PlanItem[] = [];
	const keys = new Set<string>();
	// A v1 `firstKeptEntryIndex` counts the file's entries with the header as 0, as pi's own
	// migration (`migrateV1ToV2`) reads it: entry i of the file is byIndex[i].
	const byIndex: (string | undefined)[] = [undefined];
	let tip: string | null = null;
	let title = str(header.title) ?? str(header.name);
	let lastTime = isoTime(header.timestamp) ?? new Date(0).toISOString();
	const keyOf = (id: unknown): string | undefined => {
		if (linear && typeof id === "number") return byIndex[id];
		return typeof id === "string" && keys.has(id) ? id : undefined;
	};
	for (const { line, value: entry } of lines.slice(1)) {
		const time = isoTime(entry.timestamp) ?? lastTime;
		lastTime = time;
		if (entry.type === "session_info" && typeof entry.name === "string") title = entry.name;
		const key = !linear && typeof entry.id === "string" && !keys.has(entry.id) ? entry.id : `L${line}`;
		const parent = linear ? tip : entry.parentId === null ? null : (keyOf(entry.parentId) ?? tip);
		const body =
			linear && entry.type === "compaction"
				? bodyOf({ ...entry, firstKeptEntryId: entry.firstKeptEntryIndex }, keyOf)
				: bodyOf(entry, keyOf);
		items.push({ key, parent, timestamp: time, body });
		keys.add(key);
		byIndex.push(key);
		tip = key;
	}
	const cwd = str(header.cwd);
	const startModel =
		typeof header.provider === "string" && typeof header.modelId === "string"
			? `${header.provider}/${header.modelId}`
			: undefined;
	// A v1 header names the model the session started with: it becomes the first model_change.
	if (startModel && items.length > 0) {
		const start: PlanItem = {
			key: "header-model",
			parent: null,
			timestamp: isoTime(header.timestamp) ?? lastTime,
			body: { kind: "model", model: startModel },
		};
		const rootIndex = items.findIndex((item) => item.parent === null);
		if (rootIndex >= 0) items[rootIndex] = { ...items[rootIndex]!, parent: start.key };
		items.unshift(start);
	}
	return {
		tool: "pi",
		sourcePath,
		sourceId: header.id,
		cwd: cwd ?? options.fallbackCwd,
		cwdOrigin: cwd ? "source" : options.cwdGiven ? "--cwd" : "current directory",
		...(title ? { title } : {}),
		startedAt: isoTime(header.timestamp) ?? lastTime,
		items,
		badLines,
	};
}
