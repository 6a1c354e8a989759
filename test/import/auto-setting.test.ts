import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	AUTO_NOT_BOOLEAN,
	IMPORT_NOT_OBJECT,
	readAutoSetting,
	writeAutoSetting,
} from "../../source/import/auto-setting.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

describe('settings.json "import": {"auto": …}', () => {
	const temp = useTempAgentDir();
	const settings = () => join(temp.agentDir, "settings.json");
	const put = (text: string) => {
		mkdirSync(temp.agentDir, { recursive: true });
		writeFileSync(settings(), text);
	};

	it("is off without a file, without the key, and when false; on only when true", async () => {
		expect(await readAutoSetting()).toEqual({ kind: "off" });
		put('{"defaultModel": "anthropic/x"}');
		expect(await readAutoSetting()).toEqual({ kind: "off" });
		put('{"import": {"auto": false}}');
		expect(await readAutoSetting()).toEqual({ kind: "off" });
		put('{"import": {"auto": true}}');
		expect(await readAutoSetting()).toEqual({ kind: "on" });
	});

	it("says what is wrong with a bad file or key (and is not on)", async () => {
		put('{"import": {"auto": "yes"}}');
		expect(await readAutoSetting()).toEqual({ kind: "invalid", reason: AUTO_NOT_BOOLEAN });
		expect(AUTO_NOT_BOOLEAN).toBe("settings.json: import.auto must be true or false");
		put('{"import": true}');
		expect(await readAutoSetting()).toEqual({ kind: "invalid", reason: IMPORT_NOT_OBJECT });
		expect(IMPORT_NOT_OBJECT).toBe('settings.json: import must be an object like {"auto": true}');
		put("[1]");
		expect(await readAutoSetting()).toEqual({ kind: "invalid", reason: "settings.json must hold a JSON object" });
		put("{nope");
		const broken = await readAutoSetting();
		expect(broken.kind === "invalid" && broken.reason).toMatch(/^settings\.json is not valid JSON: /);
	});

	it("is written keeping every other setting, atomically and privately, with no temp left", async () => {
		put('{"defaultModel": "anthropic/x", "import": {"other": 1}}');
		expect(await writeAutoSetting(true)).toEqual({ ok: true });
		expect(JSON.parse(readFileSync(settings(), "utf8"))).toEqual({
			defaultModel: "anthropic/x",
			import: { other: 1, auto: true },
		});
		expect(await readAutoSetting()).toEqual({ kind: "on" });
		expect(await writeAutoSetting(false)).toEqual({ ok: true });
		expect(await readAutoSetting()).toEqual({ kind: "off" });
		expect(readdirSync(temp.agentDir)).toEqual(["settings.json"]);
	});

	it("is created with the agent dir when neither exists", async () => {
		expect(await writeAutoSetting(true)).toEqual({ ok: true });
		expect(readFileSync(settings(), "utf8")).toBe('{\n  "import": {\n    "auto": true\n  }\n}\n');
	});

	it("never replaces a file it cannot read as settings: the file stays as it was", async () => {
		put("{nope");
		const refused = await writeAutoSetting(true);
		expect(refused.ok).toBe(false);
		expect(!refused.ok && refused.reason).toMatch(/^settings\.json is not valid JSON: /);
		expect(readFileSync(settings(), "utf8")).toBe("{nope");
		put('{"import": 3}');
		expect(await writeAutoSetting(true)).toEqual({ ok: false, reason: IMPORT_NOT_OBJECT });
		expect(readFileSync(settings(), "utf8")).toBe('{"import": 3}');
	});
});
