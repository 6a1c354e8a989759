import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { settingsJsonPath } from "../agent/models/model-setup.js";
import { ensurePrivateDir, writePrivateFileAtomically } from "../private-files.js";

/** `"import": {"auto": …}` in settings.json, as read: off unless it says true. */
export type AutoSetting =
	| { readonly kind: "on" }
	| { readonly kind: "off" }
	/** The file or the key is not what it should be: auto import stays off, and `reason` says why. */
	| { readonly kind: "invalid"; readonly reason: string };

/** Said of a settings.json whose `import` is not an object. */
export const IMPORT_NOT_OBJECT = 'settings.json: import must be an object like {"auto": true}';
/** Said of an `import.auto` that is not a boolean. */
export const AUTO_NOT_BOOLEAN = "settings.json: import.auto must be true or false";

type Parsed = { ok: true; settings: Record<string, unknown> | undefined } | { ok: false; reason: string };

async function readSettings(path: string): Promise<Parsed> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, settings: undefined };
		return { ok: false, reason: `settings.json could not be read: ${messageOf(error)}` };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { ok: false, reason: `settings.json is not valid JSON: ${messageOf(error)}` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return { ok: false, reason: "settings.json must hold a JSON object" };
	return { ok: true, settings: value as Record<string, unknown> };
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function importSection(settings: Record<string, unknown>): Record<string, unknown> | undefined | "invalid" {
	const section = settings.import;
	if (section === undefined) return undefined;
	if (typeof section !== "object" || section === null || Array.isArray(section)) return "invalid";
	return section as Record<string, unknown>;
}

/** Reads `import.auto` from settings.json (`path`: the agent dir's); never throws. */
export async function readAutoSetting(path: string = settingsJsonPath()): Promise<AutoSetting> {
	const parsed = await readSettings(path);
	if (!parsed.ok) return { kind: "invalid", reason: parsed.reason };
	if (!parsed.settings) return { kind: "off" };
	const section = importSection(parsed.settings);
	if (section === "invalid") return { kind: "invalid", reason: IMPORT_NOT_OBJECT };
	const auto = section?.auto;
	if (auto === undefined || auto === false) return { kind: "off" };
	if (auto === true) return { kind: "on" };
	return { kind: "invalid", reason: AUTO_NOT_BOOLEAN };
}

/**
 * Sets `import.auto` in settings.json, keeping every other setting; the file is replaced atomically.
 * A file that cannot be read as a JSON object is left as it is: the reason comes back instead.
 */
export async function writeAutoSetting(
	on: boolean,
	path: string = settingsJsonPath(),
): Promise<{ ok: true } | { ok: false; reason: string }> {
	const parsed = await readSettings(path);
	if (!parsed.ok) return parsed;
	const settings = parsed.settings ?? {};
	const section = importSection(settings);
	if (section === "invalid") return { ok: false, reason: IMPORT_NOT_OBJECT };
	const next = { ...settings, import: { ...section, auto: on } };
	try {
		await ensurePrivateDir(dirname(path));
		await writePrivateFileAtomically(path, new TextEncoder().encode(`${JSON.stringify(next, null, 2)}\n`));
	} catch (error) {
		return { ok: false, reason: `settings.json could not be written: ${messageOf(error)}` };
	}
	return { ok: true };
}
