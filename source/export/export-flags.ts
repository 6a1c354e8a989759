import type { ExportFormat } from "./export-target.js";

/** The export flags that only some formats take. */
export interface FormatFlags {
	focused?: boolean;
	collapseTools?: boolean;
	system?: boolean;
	thinking?: boolean;
}

/** Which formats take each flag, and how the refusal names them (HTML has always accepted, and ignored, --focused). */
const RULES: readonly { flag: keyof FormatFlags; name: string; formats: readonly ExportFormat[]; says: string }[] = [
	{ flag: "focused", name: "--focused", formats: ["html", "md", "json"], says: "md and json" },
	{ flag: "collapseTools", name: "--collapse-tools", formats: ["html", "md", "json"], says: "html, md and json" },
	{ flag: "system", name: "--system", formats: ["openai-sft"], says: "openai-sft" },
	{ flag: "thinking", name: "--thinking", formats: ["openai-sft"], says: "openai-sft" },
];

/** One line when a flag does not apply to the format ("--system is for --format openai-sft"), else undefined. */
export function formatFlagProblem(format: ExportFormat, flags: FormatFlags): string | undefined {
	for (const rule of RULES)
		if (flags[rule.flag] === true && !rule.formats.includes(format)) return `${rule.name} is for --format ${rule.says}`;
	return undefined;
}
