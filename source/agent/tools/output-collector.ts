import { randomBytes } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { log } from "../../logger.js";
import { collapseCarriageReturns } from "./terminal-text.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateTail } from "./truncate.js";

/** Where and how much command output is kept. */
export interface OutputCollectorOptions {
	readonly maxLines?: number;
	readonly maxBytes?: number;
	/** Directory for the full-output file; defaults to the OS temp dir. */
	readonly tempDir?: string;
}

/** The visible tail of the output so far, with the note to append when it is cut. */
export interface OutputSnapshot {
	readonly text: string;
	readonly truncated: boolean;
	/** `[Output truncated: …]` when truncated, else empty. */
	readonly note: string;
	readonly totalLines: number;
	readonly totalBytes: number;
	readonly fullOutputPath?: string;
}

/**
 * Accumulates cleaned command output in bounded memory: a rolling tail for display, running totals,
 * and, once the output outgrows the limits, a temp file holding all of it for the model to read.
 */
export class OutputCollector {
	private tail = "";
	private totalBytes = 0;
	private newlines = 0;
	private endsWithNewline = true;
	private fd: number | undefined;
	private fullOutputPath: string | undefined;
	private spilled = false;
	private readonly maxLines: number;
	private readonly maxBytes: number;
	private readonly tempDir: string;

	/** Starts empty; nothing touches the disk until the output outgrows the limits. */
	constructor(options: OutputCollectorOptions = {}) {
		this.maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
		this.tempDir = options.tempDir ?? tmpdir();
	}

	/** Adds cleaned text (see TerminalTextCleaner). */
	push(text: string): void {
		if (text === "") return;
		this.totalBytes += Buffer.byteLength(text, "utf8");
		for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.newlines++;
		this.endsWithNewline = text.endsWith("\n");
		this.tail += text;
		if (this.spilled) this.writeFull(text);
		else if (this.totalBytes > this.maxBytes || this.lineCount() > this.maxLines) this.spill();
		// The tail only has to outlast the byte limit; chars never outnumber bytes, so 2x chars is enough.
		if (this.tail.length > 4 * this.maxBytes) this.tail = this.tail.slice(-2 * this.maxBytes);
	}

	/** The output as the model should see it right now. */
	snapshot(): OutputSnapshot {
		const visible = collapseCarriageReturns(this.tail);
		const totals = { totalLines: this.lineCount(), totalBytes: this.totalBytes };
		if (!this.spilled) return { text: visible, truncated: false, note: "", ...totals };
		const cut = truncateTail(visible, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		const shown = cut.truncated ? cut.keptLines : cut.totalLines;
		const limit = cut.truncated && cut.truncatedBy === "bytes" ? ` (${formatSize(this.maxBytes)} limit)` : "";
		const where = this.fullOutputPath === undefined ? "" : ` Full output: ${this.fullOutputPath}`;
		const note = `[Output truncated: showing the last ${shown} of ${totals.totalLines} lines${limit}.${where}]`;
		const withPath = this.fullOutputPath === undefined ? {} : { fullOutputPath: this.fullOutputPath };
		return { text: cut.content, truncated: true, note, ...totals, ...withPath };
	}

	/** Closes the full-output file (which stays on disk); call once the command has ended. */
	close(): void {
		if (this.fd === undefined) return;
		closeSync(this.fd);
		this.fd = undefined;
	}

	private lineCount(): number {
		return this.newlines + (this.endsWithNewline ? 0 : 1);
	}

	private spill(): void {
		this.spilled = true;
		const path = join(this.tempDir, `xcsh-bash-${randomBytes(6).toString("hex")}.log`);
		try {
			this.fd = openSync(path, "wx", 0o600);
			this.fullOutputPath = path;
		} catch (error) {
			// Losing the full copy must not fail the command; the model still gets the tail.
			log.warn(`bash: cannot write full output to ${path}: ${(error as Error).message}`);
			return;
		}
		// Until now the tail held everything: it is only trimmed after the output has spilled.
		this.writeFull(this.tail);
	}

	private writeFull(text: string): void {
		if (this.fd === undefined) return;
		try {
			writeSync(this.fd, text);
		} catch (error) {
			log.warn(`bash: full output file ${this.fullOutputPath} is incomplete: ${(error as Error).message}`);
			this.close();
		}
	}
}
