/**
 * The data of bench/big-sessions.ts, generated once and kept under /tmp/xcsh-big-sessions/ (BENCH_BIG_ROOT):
 * big sessions by size (100 MB … 5 GB), a 10k-entry session, and the 10,000-session picker corpus of
 * bench/index-scale-data.ts. A session's directory is named by generator version, size, entry cap, seed
 * and tool-result cap, and holds `manifest.json` once the file is complete: an interrupted generation is
 * never reused.
 */
import {
	copyFileSync,
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	truncateSync,
	writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { encodeCwd, sessionFileName } from "../source/session/session-paths.js";
import { blobImages, writeSessionFile } from "./generate-sessions.js";
import { ensureData, type Manifest } from "./index-scale-data.js";

/** Bumped whenever what is generated changes: sessions of an older version are generated again. */
const GENERATOR_VERSION = 2;
/** Path bytes between two compactions (a 200k-token window is under 1 MB of text; tool results are big). */
const COMPACT_EVERY_BYTES = 2 * 1024 * 1024;
/** Tool results up to 200 KB, as the issue asks. */
const MAX_TOOL_RESULT_CHARS = 200_000;
const START_MS = Date.UTC(2025, 2, 1);

/** Where everything lives. */
export const ROOT = process.env.BENCH_BIG_ROOT ?? "/tmp/xcsh-big-sessions";
/** The project every generated session belongs to (its header cwd): the CLI is started here. */
export const PROJECT = join(ROOT, "project");
/** An agent dir holding only the blobs the sessions refer to; copied into each run's fresh agent dir. */
const TEMPLATE_AGENT = join(ROOT, "template-agent");

/** A size to generate, as typed ("30MB", "1GB"; decimal units). */
export interface SessionSize {
	label: string;
	bytes: number;
}

/** A generated session and what the measurements wait for. */
export interface BigSession {
	label: string;
	path: string;
	bytes: number;
	entries: number;
	/** The text of the last assistant message (the leaf); `marker` is a word of it found on screen. */
	lastAnswer: string;
	marker: string;
	generatedSeconds: number;
}

const UNITS: Record<string, number> = { KB: 1e3, MB: 1e6, GB: 1e9 };

/** "100MB,1GB,5GB" → sizes; throws a one-line error on anything else. */
export function parseSizes(spec: string): SessionSize[] {
	return spec
		.split(",")
		.map((part) => part.trim())
		.filter((part) => part !== "")
		.map((part) => {
			const match = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB)$/i.exec(part);
			if (!match) throw new Error(`BENCH_BIG_SIZES: "${part}" is not a size such as 30MB or 1GB`);
			const unit = match[2]!.toUpperCase();
			return { label: `${match[1]}${unit}`, bytes: Math.round(Number(match[1]) * UNITS[unit]!) };
		});
}

const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(2)} GB`;

function readManifest(dir: string): BigSession | undefined {
	try {
		const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as BigSession;
		return statSync(manifest.path).size === manifest.bytes ? manifest : undefined;
	} catch {
		return undefined;
	}
}

function ensureTemplate(): void {
	mkdirSync(PROJECT, { recursive: true });
	// Deterministic: the same three blobs whatever the session, written only when missing.
	blobImages(TEMPLATE_AGENT);
}

/**
 * The session of `size` (and `seed`), generated when missing: streamed to disk in 4 MB chunks, with a
 * progress line every ~5 s. `entries` caps a session by count instead of size (the 10k-entry one).
 */
export function ensureSession(
	size: SessionSize,
	log: (line: string) => void,
	{ seed = 1, entries = Number.POSITIVE_INFINITY, maxToolResultChars = MAX_TOOL_RESULT_CHARS } = {},
): BigSession {
	ensureTemplate();
	const cap = Number.isFinite(entries) ? `-n${entries}` : "";
	const dir = join(ROOT, `g${GENERATOR_VERSION}-${size.label}${cap}-seed${seed}-tool${maxToolResultChars}`);
	const cached = readManifest(dir);
	if (cached) {
		log(
			`  ${size.label}: reusing ${cached.path} (${gb(cached.bytes)}, ${cached.entries.toLocaleString("en")} entries)`,
		);
		return cached;
	}
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const sessionId = `${START_MS.toString(16).padStart(12, "0")}b${seed.toString(16).padStart(3, "0")}`;
	const name = sessionFileName(new Date(START_MS).toISOString(), sessionId);
	const partial = join(dir, `${name}.partial`);
	const marker = `bigend${size.label.toLowerCase()}`;
	const lastAnswer = `All of the ${size.label} session was read: ${marker} is its last answer.`;
	const started = performance.now();
	let lastLog = started;
	const written = writeSessionFile(partial, {
		entries,
		targetBytes: size.bytes,
		seed,
		agentDir: TEMPLATE_AGENT,
		cwd: PROJECT,
		sessionId,
		startMs: START_MS,
		title: `Big session ${size.label}`,
		maxToolResultChars,
		// An agent compacts when its window fills: a context of a few MB, not a tenth of the file.
		compactEveryBytes: COMPACT_EVERY_BYTES,
		lastAnswer,
		onProgress: (bytes, count) => {
			const now = performance.now();
			if (now - lastLog < 5_000) return;
			lastLog = now;
			const rate = bytes / 1e6 / ((now - started) / 1000);
			log(`  ${size.label}: ${gb(bytes)}, ${count.toLocaleString("en")} entries, ${rate.toFixed(0)} MB/s`);
		},
	});
	const path = join(dir, name);
	renameSync(partial, path);
	const generatedSeconds = (performance.now() - started) / 1000;
	const session: BigSession = {
		label: size.label,
		path,
		bytes: written.bytes,
		entries: written.entries,
		lastAnswer,
		marker,
		generatedSeconds,
	};
	writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(session, null, "\t")}\n`);
	const rate = (written.bytes / 1e6 / generatedSeconds).toFixed(0);
	log(`  ${size.label}: generated ${gb(written.bytes)} in ${generatedSeconds.toFixed(1)} s (${rate} MB/s), ${path}`);
	return session;
}

/** The 10k-entry (~30 MB) session of the "small sessions" target: tool results up to 20 KB, as in bench/session-store.ts. */
export function ensureSmallSession(log: (line: string) => void): BigSession {
	const size = { label: "10k-entries", bytes: Number.POSITIVE_INFINITY };
	// 9,999 generated entries and the last answer: 10,000.
	return ensureSession(size, log, { seed: 2, entries: 9_999, maxToolResultChars: 20_000 });
}

/** The picker corpus (bench/index-scale-data.ts), under ROOT unless BENCH_PICKER_ROOT names another. */
export function ensurePickerCorpus(sessions: number, log: (line: string) => void): Promise<Manifest> {
	const root = process.env.BENCH_PICKER_ROOT ?? join(ROOT, `picker-${sessions}`);
	return ensureData(root, sessions, false, log);
}

/** A fresh agent dir for one run: the blobs copied, the session hard-linked into its project's folder. */
export interface RunDir {
	agentDir: string;
	/** The session as the CLI is given it (a hard link to the cached file, else the cached file). */
	sessionPath: string;
	/** What was deleted before the run so that it is a first open. */
	deleted: string[];
	remove(): void;
}

/** Creates a fresh agent dir for `session`; a hard link shares the inode, so nothing big is copied. */
export function freshRunDir(session: BigSession): RunDir {
	const runs = join(ROOT, "runs");
	mkdirSync(runs, { recursive: true });
	const root = mkdtempSync(join(runs, "run-"));
	const agentDir = join(root, "agent");
	const blobs = join(agentDir, "blobs");
	mkdirSync(blobs, { recursive: true, mode: 0o700 });
	for (const blob of readdirSync(join(TEMPLATE_AGENT, "blobs"))) {
		copyFileSync(join(TEMPLATE_AGENT, "blobs", blob), join(blobs, blob));
	}
	const sessions = join(agentDir, "sessions", encodeCwd(PROJECT));
	mkdirSync(sessions, { recursive: true });
	let sessionPath = join(sessions, basename(session.path));
	try {
		linkSync(session.path, sessionPath);
	} catch {
		sessionPath = session.path;
	}
	return { agentDir, sessionPath, deleted: [], remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Deletes whatever a previous open may have left to make the next one faster: files beside the session
 * whose names start with its name (sidecars), and the agent dir's index database. Returns what it deleted.
 */
export function forgetSkeleton(run: RunDir, session: BigSession): string[] {
	const deleted: string[] = [];
	const dirs = new Set([join(run.sessionPath, ".."), join(session.path, "..")]);
	for (const dir of dirs) {
		for (const name of readdirSync(dir)) {
			const isSidecar = name.startsWith(basename(session.path)) && name !== basename(session.path);
			if (!isSidecar || name.endsWith(".partial")) continue;
			rmSync(join(dir, name), { recursive: true, force: true });
			deleted.push(join(dir, name));
		}
	}
	for (const suffix of ["", "-wal", "-shm", "-journal"]) {
		const db = join(run.agentDir, `index.db${suffix}`);
		if (!existsSync(db)) continue;
		rmSync(db, { force: true });
		deleted.push(db);
	}
	return deleted;
}

/** Puts the cached file back to its generated size when a run appended to it; says what it found. */
export function restoreSession(session: BigSession): string | undefined {
	const size = statSync(session.path).size;
	if (size === session.bytes) return undefined;
	if (size > session.bytes) truncateSync(session.path, session.bytes);
	return `the session changed size during the run (${session.bytes} → ${size} bytes)${size > session.bytes ? "; truncated back" : ""}`;
}
