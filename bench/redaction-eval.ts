/**
 * Redaction recall and precision: `npm run bench:redaction`.
 *
 * Runs the built-in detectors (no env values, no redaction.json) over the generated corpus of
 * test/redaction/recall-corpus (seed 12, or BENCH_SEED) and prints recall by provider and by context,
 * false positives on ordinary look-alikes and on near-misses, then the scan speed over ~10 MB of
 * prose and code without secrets (median of BENCH_RUNS, default 5). Markdown tables, ready for the README.
 */
import { createRedactor } from "../source/redaction/redact.js";
import { buildRecallCorpus, leaks, type Negative, type Positive } from "../test/redaction/recall-corpus/index.js";

const SEED = Number(process.env.BENCH_SEED ?? 12) || 12;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5);

const say = (line = ""): boolean => process.stdout.write(`${line}\n`);
const pct = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)} %`;
const median = (values: readonly number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const redactor = createRedactor({ env: false });
const corpus = buildRecallCorpus(SEED);

function table(title: string, key: (p: Positive) => string, positives: readonly Positive[]): string[] {
	const groups = new Map<string, { found: number; total: number; missed: Positive[] }>();
	for (const p of positives) {
		const group = groups.get(key(p)) ?? { found: 0, total: 0, missed: [] };
		group.total++;
		if (leaks(p.secret, redactor.redact(p.text).text)) group.missed.push(p);
		else group.found++;
		groups.set(key(p), group);
	}
	say(`| ${title} | secrets | redacted | recall |`);
	say("| --- | --: | --: | --: |");
	const missed: string[] = [];
	for (const [name, g] of groups) {
		say(`| ${name} | ${g.total} | ${g.found} | ${pct(g.found, g.total)} |`);
		for (const p of g.missed) missed.push(`${p.provider} in ${p.context}: ${JSON.stringify(p.text).slice(0, 140)}`);
	}
	say();
	return missed;
}

function falsePositives(title: string, negatives: readonly Negative[]): void {
	const groups = new Map<string, { flagged: Negative[]; total: number }>();
	for (const n of negatives) {
		const group = groups.get(n.group) ?? { flagged: [], total: 0 };
		group.total++;
		if (redactor.redact(n.text).findings.length > 0) group.flagged.push(n);
		groups.set(n.group, group);
	}
	const flagged = [...groups.values()].flatMap((g) => g.flagged);
	say(`${title}: ${flagged.length} of ${negatives.length} changed (${pct(flagged.length, negatives.length)})`);
	say();
	say("| group | texts | changed |");
	say("| --- | --: | --: |");
	for (const [name, g] of groups) say(`| ${name} | ${g.total} | ${g.flagged.length} |`);
	say();
	for (const n of flagged.slice(0, 10)) say(`  changed: ${JSON.stringify(redactor.redact(n.text).text).slice(0, 140)}`);
}

function scanSpeed(): void {
	const prose =
		"The session layer appends every entry to a JSONL file, then fsyncs; a torn tail is repaired on load. " +
		"See https://example.com/docs?page=2, commit 3f786850e387550fdab836ed7e6dc881de23001b and the token counter.\n";
	const code =
		"export function load(path: string, options: LoadOptions = {}): Session {\n" +
		"\tconst token = options.token ?? process.env.XCSH_TOKEN;\n" +
		"\treturn { path, hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4', id: '123e4567-e89b-12d3-a456-426614174000' };\n}\n";
	const chunks: string[] = [];
	let bytes = 0;
	for (let i = 0; bytes < 10_000_000; i++) {
		const chunk = (i % 2 === 0 ? prose : code).repeat(8);
		chunks.push(chunk);
		bytes += chunk.length;
	}
	const times: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		const started = performance.now();
		for (const chunk of chunks) redactor.redact(chunk);
		times.push(performance.now() - started);
	}
	const ms = median(times);
	say(
		`scan speed: ${(bytes / 1e6).toFixed(1)} MB in ${chunks.length} strings, median of ${RUNS}: ${ms.toFixed(0)} ms (${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s)`,
	);
}

say(
	`Redaction corpus (seed ${SEED}): ${corpus.positives.length} secrets, ${corpus.lookalikes.length} look-alikes, ${corpus.nearMisses.length} near-misses`,
);
say();
const missed = table("provider", (p) => p.provider, corpus.positives);
table("context", (p) => p.context, corpus.positives);
const found = corpus.positives.length - missed.length;
say(`recall: ${found} of ${corpus.positives.length} (${pct(found, corpus.positives.length)})`);
for (const line of missed.slice(0, 10)) say(`  missed ${line}`);
say();
falsePositives("false positives, ordinary look-alikes", corpus.lookalikes);
say();
falsePositives("false positives, near-misses", corpus.nearMisses);
say();
scanSpeed();
