import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** A fake, format-valid secret planted in some context; `secret` must not survive redaction. */
export interface PlantedSecret {
	readonly kind: string;
	readonly secret: string;
	readonly text: string;
	/** For env-value lines: the variable the test sets to `secret`. */
	readonly env?: string;
}

/** A string that looks secret-ish but must come out byte-identical. */
export interface Lookalike {
	readonly note: string;
	readonly text: string;
}

function readJsonl<T>(name: string): T[] {
	const path = resolve(import.meta.dirname, "../fixtures/secrets", name);
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as T);
}

/** Every planted secret (test/fixtures/secrets/planted.jsonl). */
export const planted: readonly PlantedSecret[] = readJsonl<PlantedSecret>("planted.jsonl");

/** Every look-alike (test/fixtures/secrets/lookalikes.jsonl). */
export const lookalikes: readonly Lookalike[] = readJsonl<Lookalike>("lookalikes.jsonl");

/** The env the env-value lines need: name → secret. */
export const plantedEnv: Readonly<Record<string, string>> = Object.fromEntries(
	planted.flatMap((p) => (p.env ? [[p.env, p.secret]] : [])),
);

/** Sets the planted env vars on process.env for a test and restores them afterwards. */
export function withPlantedEnv(): { restore: () => void } {
	const previous = new Map<string, string | undefined>();
	for (const [name, value] of Object.entries(plantedEnv)) {
		previous.set(name, process.env[name]);
		process.env[name] = value;
	}
	return {
		restore() {
			for (const [name, value] of previous) {
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
		},
	};
}
