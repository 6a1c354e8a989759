import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { getSessionsRoot } from "../agent-dir.js";
import { lazyThreshold } from "../session/read-thresholds.js";
import { getBlobsDir } from "../session/session-paths.js";
import { findStaleTemps } from "../session/stale-temps.js";
import { analyzeSessionFile, type HasBlob, type SessionAnalysis } from "./analyze.js";
import { isDiagnosisOk, type SessionDiagnosis } from "./findings.js";
import { inspectLock, lockFinding } from "./lock-check.js";
import type { ReadLimits } from "./session-reader.js";

/** Where to look for blobs (default `<agentDir>/blobs`), and how to read. */
export interface DiagnoseOptions extends ReadLimits {
	blobsDir?: string;
	/** Sessions above this size are reported as large (default: the size above which they open lazily). */
	lazyAboveBytes?: number;
}

/** Quarantine files end in `.jsonl` too, but hold repaired-away lines, not a session. */
export const QUARANTINE_SUFFIX = ".quarantine.jsonl";

/** A blob lookup against a blob directory (existence only: blobs are content-addressed). */
export function blobDirLookup(blobsDir: string): HasBlob {
	return (hash) => existsSync(join(blobsDir, hash));
}

/** The analysis plus the lock, the stale temps and the size, as the report. */
export function toDiagnosis(path: string, analysis: SessionAnalysis, options: DiagnoseOptions = {}): SessionDiagnosis {
	const findings = [...analysis.findings];
	const lock = lockFinding(inspectLock(path));
	if (lock) findings.push(lock);
	for (const temp of findStaleTemps(path)) findings.push({ kind: "stale-temp", ...temp });
	const threshold = lazyThreshold(options.lazyAboveBytes);
	if (analysis.header.valid && analysis.size > threshold) {
		findings.push({ kind: "large-session", bytes: analysis.size, threshold, slimmableBytes: analysis.slimmable.bytes });
	}
	return { path, ok: isDiagnosisOk(analysis.header, findings), header: analysis.header, findings };
}

/**
 * Diagnoses one session file, streamed in bounded memory. Read-only: the file, its lock and the blob
 * store are only read. Rejects with the filesystem's error (ENOENT, EISDIR) when the file cannot be read.
 */
export async function diagnoseSessionFile(path: string, options: DiagnoseOptions = {}): Promise<SessionDiagnosis> {
	const analysis = await analyzeSessionFile(path, blobDirLookup(options.blobsDir ?? getBlobsDir()), options);
	return toDiagnosis(path, analysis, options);
}

/** Every session file under `<agentDir>/sessions/*\/`, sorted (quarantine files excluded). */
export function listSessionFiles(sessionsRoot: string = getSessionsRoot()): string[] {
	const files: string[] = [];
	let projects: string[];
	try {
		projects = readdirSync(sessionsRoot, { withFileTypes: true })
			.filter((d) => d.isDirectory())
			.map((d) => d.name);
	} catch {
		return [];
	}
	for (const project of projects.sort()) {
		const dir = join(sessionsRoot, project);
		let names: string[];
		try {
			names = readdirSync(dir, { withFileTypes: true })
				.filter((d) => d.isFile() && d.name.endsWith(".jsonl") && !d.name.endsWith(QUARANTINE_SUFFIX))
				.map((d) => d.name);
		} catch {
			continue;
		}
		for (const name of names.sort()) files.push(join(dir, name));
	}
	return files;
}
