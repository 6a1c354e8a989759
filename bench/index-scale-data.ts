/**
 * The data set of bench/index-scale.ts: N sessions over ~50 projects laid out as the app lays them out
 * (`<agentDir>/sessions/<encoded cwd>/<timestamp>_<id>.jsonl`), deterministic, reused across runs while
 * `<root>/manifest.json` matches. Generation runs in one child process per core
 * (bench/index-scale-worker.ts): 3 GB of JSON takes about a minute and a half on one core.
 */
import { fork } from "node:child_process";
import { createHash } from "node:crypto";
import {
	appendFileSync,
	closeSync,
	fstatSync,
	mkdirSync,
	openSync,
	readFileSync,
	readSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeCwd, sessionFileName } from "../source/session/session-paths.js";
import { MessageFactory, Random } from "./generate-sessions.js";

/** Bumped whenever the plan below changes what is generated: old data is then regenerated. */
const FORMAT_VERSION = 1;
const PROJECTS = 50;
const DAY_MS = 86_400_000;
/** Header timestamps of all sessions but the planted one fall in [FIRST_MS, FIRST_MS + 90 days]. */
const FIRST_MS = Date.UTC(2025, 8, 1);
const SPREAD_MS = 90 * DAY_MS;
/** Average bytes of a generated entry (measured: 3.0–3.2 KB at every session size). */
const BYTES_PER_ENTRY = 3_100;
const WORKER = fileURLToPath(new URL("./index-scale-worker.ts", import.meta.url));

/** The 3-word phrase planted in one user message; no word of it is in the generator's vocabulary. */
export const PLANTED_PHRASE = "periwinkle zeppelin marmalade";

/** One session to generate. */
export interface PlannedSession {
	index: number;
	cwd: string;
	path: string;
	sessionId: string;
	entries: number;
	startMs: number;
	seed: number;
	title?: string;
	planted: boolean;
}

/** What `<root>/manifest.json` holds: the parameters, and what was written. */
export interface Manifest {
	version: number;
	/** sha256 of the plan: any change to what would be generated invalidates the data. */
	planHash: string;
	sessions: number;
	root: string;
	files: number;
	totalBytes: number;
	/** The project with the most sessions: the cwd of the project-scoped measurements. */
	bigCwd: string;
	bigSessions: number;
	projects: number;
	planted: { path: string; cwd: string; phrase: string };
}

/** Where the generated agent dir and project dirs live. */
export function layout(root: string): { agentDir: string; sessionsDir: string; projectsDir: string; manifest: string } {
	const agentDir = join(root, "agent");
	return {
		agentDir,
		sessionsDir: join(agentDir, "sessions"),
		projectsDir: join(root, "projects"),
		manifest: join(root, "manifest.json"),
	};
}

/** Project cwds, biggest first; they are real directories so the CLI can be started in them. */
function projectCwds(root: string): string[] {
	const { projectsDir } = layout(root);
	return Array.from({ length: PROJECTS }, (_, i) => join(projectsDir, i === 0 ? "xcsh" : `service-${i}`));
}

/** Most 50–300 KB, some up to 1.5 MB, a few several MB: a mean of ~300 KB. */
function sessionBytes(r: Random): number {
	const logUniform = (min: number, max: number): number => min * (max / min) ** r.next();
	const roll = r.next();
	if (roll < 0.86) return logUniform(50_000, 300_000);
	if (roll < 0.975) return logUniform(300_000, 1_500_000);
	return logUniform(1_500_000, 8_000_000);
}

/**
 * The deterministic plan: project 0 has 10% of the sessions, the other 49 share the rest Zipf-like (1/√rank);
 * the last session is the planted one, in the smallest project, a month before every other header.
 */
export function planSessions(root: string, sessions: number): PlannedSession[] {
	const r = new Random(0x5ca1e);
	const cwds = projectCwds(root);
	const big = Math.max(1, Math.round(sessions * 0.1));
	const weights = cwds.slice(1).map((_, i) => 1 / Math.sqrt(i + 1));
	const totalWeight = weights.reduce((a, b) => a + b, 0);
	const pickSmall = (): string => {
		let roll = r.next() * totalWeight;
		for (let i = 0; i < weights.length; i++) {
			roll -= weights[i]!;
			if (roll <= 0) return cwds[i + 1]!;
		}
		return cwds.at(-1)!;
	};
	const plan: PlannedSession[] = [];
	for (let index = 0; index < sessions; index++) {
		const planted = index === sessions - 1;
		const cwd = planted ? cwds.at(-1)! : index < big ? cwds[0]! : pickSmall();
		const entries = Math.max(10, Math.round(sessionBytes(r) / BYTES_PER_ENTRY));
		// The index in the id keeps every session id and file name distinct.
		const startMs = planted ? FIRST_MS - 30 * DAY_MS : FIRST_MS + Math.floor(r.next() * SPREAD_MS) + index;
		const sessionId = startMs.toString(16).padStart(12, "0") + (index & 0xffff).toString(16).padStart(4, "0");
		const title = r.chance(0.3) ? `Session ${index}: ${r.pick(["fix", "add", "refactor", "debug"])} things` : undefined;
		const file = sessionFileName(new Date(startMs).toISOString(), sessionId);
		const path = join(layout(root).sessionsDir, encodeCwd(cwd), file);
		plan.push({ index, cwd, path, sessionId, entries, startMs, seed: index + 1, planted, ...(title ? { title } : {}) });
	}
	return plan;
}

/** The id and time of the last entry of a session file, read backwards from its end. */
export function lastEntry(path: string): { id: string; ms: number } {
	const fd = openSync(path, "r");
	try {
		let tail = Buffer.alloc(0);
		for (let end = fstatSync(fd).size; end > 0; ) {
			const start = Math.max(0, end - (64 << 10));
			const chunk = Buffer.alloc(end - start);
			readSync(fd, chunk, 0, chunk.length, start);
			tail = Buffer.concat([chunk, tail]);
			end = start;
			const body = tail.subarray(0, tail.length - 1);
			const nl = body.lastIndexOf(0x0a);
			if (nl < 0 && start > 0) continue;
			const entry = JSON.parse(body.toString("utf8", nl + 1)) as { id?: string; timestamp: string };
			return { id: entry.id ?? "", ms: Date.parse(entry.timestamp) };
		}
		throw new Error(`${path} is empty`);
	} finally {
		closeSync(fd);
	}
}

/**
 * Appends one prompt and its turn (user, assistant with a tool call, tool result, assistant) the way
 * the generator writes entries, continuing the session's path; `userText` replaces the prompt's text.
 * Returns the time of the last appended entry.
 */
export function appendTurn(path: string, seed: number, userText?: string): number {
	const last = lastEntry(path);
	const factory = new MessageFactory(seed, last.ms, 8_000);
	const user = factory.user();
	if (userText !== undefined && user.role === "user" && Array.isArray(user.content)) {
		user.content[0] = { type: "text", text: userText };
	}
	const assistant = factory.assistant(1);
	const call = assistant.content.find((block) => block.type === "toolCall");
	const messages = [user, assistant, ...(call ? [factory.toolResult(call)] : []), factory.assistant(0)];
	let parentId = last.id;
	const lines: string[] = [];
	for (const message of messages) {
		const id = factory.r.hex(8);
		const timestamp = new Date(factory.tick()).toISOString();
		lines.push(JSON.stringify({ type: "message", id, parentId, timestamp, message }));
		parentId = id;
	}
	appendFileSync(path, `${lines.join("\n")}\n`);
	return factory.now;
}

/** Sum of sizes and count of the `.jsonl` files under the sessions dir. */
export async function measureSessions(sessionsDir: string): Promise<{ files: string[]; totalBytes: number }> {
	const files: string[] = [];
	let totalBytes = 0;
	for (const dir of await readdir(sessionsDir).catch(() => [])) {
		for (const name of await readdir(join(sessionsDir, dir))) {
			if (!name.endsWith(".jsonl")) continue;
			const path = join(sessionsDir, dir, name);
			files.push(path);
			totalBytes += (await stat(path)).size;
		}
	}
	return { files, totalBytes };
}

function readManifest(path: string): Manifest | undefined {
	try {
		return JSON.parse(readFileSync(path, "utf8")) as Manifest;
	} catch {
		return undefined;
	}
}

async function generate(root: string, sessions: number, log: (line: string) => void): Promise<void> {
	const workers = Math.max(1, Math.min(cpus().length, 8));
	const started = performance.now();
	let done = 0;
	let bytes = 0;
	let lastPrint = 0;
	await Promise.all(
		Array.from({ length: workers }, (_, worker) => {
			const child = fork(WORKER, [root, String(sessions), String(worker), String(workers)], {
				execArgv: ["--import", "tsx"],
			});
			child.on("message", (message: { sessions: number; bytes: number }) => {
				done += message.sessions;
				bytes += message.bytes;
				const now = performance.now();
				if (now - lastPrint < 2_000 && done < sessions) return;
				lastPrint = now;
				const seconds = (now - started) / 1000;
				log(`  generated ${done}/${sessions} sessions, ${(bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(0)} s`);
			});
			return new Promise<void>((resolvePromise, reject) =>
				child.on("exit", (code) =>
					code === 0 ? resolvePromise() : reject(new Error(`generator worker ${worker} exited with ${code}`)),
				),
			);
		}),
	);
}

/**
 * The data set under `root` for `sessions` sessions: reused when the manifest matches and the files
 * are all there with the recorded total size, else (or with `regenerate`) written from scratch.
 */
export async function ensureData(
	root: string,
	sessions: number,
	regenerate: boolean,
	log: (line: string) => void,
): Promise<Manifest> {
	const paths = layout(root);
	const plan = planSessions(root, sessions);
	const planted = plan.find((session) => session.planted)!;
	const cwds = new Map<string, number>();
	for (const session of plan) cwds.set(session.cwd, (cwds.get(session.cwd) ?? 0) + 1);
	const [bigCwd, bigSessions] = [...cwds].sort((a, b) => b[1] - a[1])[0]!;
	const planHash = createHash("sha256").update(JSON.stringify(plan)).digest("hex");
	const old = readManifest(paths.manifest);
	if (!regenerate && old?.version === FORMAT_VERSION && old.planHash === planHash) {
		const found = await measureSessions(paths.sessionsDir);
		if (found.files.length === old.files && found.totalBytes === old.totalBytes) {
			log(`Reusing ${old.files} sessions (${(old.totalBytes / 1e9).toFixed(2)} GB) in ${root}`);
			return old;
		}
		log(`Data in ${root} does not match its manifest: regenerating`);
	}
	rmSync(paths.manifest, { force: true });
	rmSync(paths.agentDir, { recursive: true, force: true });
	rmSync(paths.projectsDir, { recursive: true, force: true });
	for (const cwd of cwds.keys()) mkdirSync(cwd, { recursive: true });
	log(`Generating ${sessions} sessions in ${root} …`);
	await generate(root, sessions, log);
	const found = await measureSessions(paths.sessionsDir);
	if (found.files.length !== sessions) throw new Error(`generated ${found.files.length} of ${sessions} sessions`);
	const manifest: Manifest = {
		version: FORMAT_VERSION,
		planHash,
		sessions,
		root,
		files: found.files.length,
		totalBytes: found.totalBytes,
		bigCwd,
		bigSessions,
		projects: cwds.size,
		planted: { path: planted.path, cwd: planted.cwd, phrase: PLANTED_PHRASE },
	};
	writeFileSync(paths.manifest, `${JSON.stringify(manifest, null, "\t")}\n`);
	return manifest;
}
