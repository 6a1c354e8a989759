import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { usePtyProject } from "../helpers/pty-project.js";

const flat = (s: string) => s.replace(/\n/g, "");

describe("slash commands read through their spec, in the full-screen UI", () => {
	const temp = usePtyProject();

	it("/export --foo is refused with the usage and writes nothing; /help export prints the usage; Tab lists /thinking's levels", async () => {
		const t = temp.open({ cols: 120, rows: 32 });
		await t.waitFor("Type a prompt");
		await t.type("/export --foo");
		t.write("\r");
		const refused = flat(await t.waitFor((screen) => flat(screen).includes("/export: unknown flag --foo.")));
		expect(refused).toContain("/export: unknown flag --foo. Usage: /export [path]");
		expect(readdirSync(temp.project)).not.toContain("--foo");

		await t.type("/help export");
		t.write("\r");
		const help = flat(
			await t.waitFor((screen) => flat(screen).includes("--format html|md|json|pi|atif|openai-sft  the file's format")),
		);
		expect(help).toContain(
			"Usage: /export [path] [--tree | --branch | --entry <id>] [--format html|md|json|pi|atif|openai-sft]",
		);

		await t.type("/thinking ");
		t.write("\t");
		const listed = await t.waitFor((screen) => screen.includes("minimal") && screen.includes("xhigh"));
		expect(listed).toContain("medium");
		await t.type("me", "› /thinking me");
		t.write("\t");
		await t.waitFor("› /thinking medium");
	});
});
