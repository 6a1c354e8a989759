import type { CompactionStep } from "../agent/compaction/streamed-summary.js";
import { describeProgress } from "./byte-progress.js";

/** The progress line of a compaction: "Compacting the context · 120 of 610 MB read · Esc stops". */
export function describeCompaction(label: string, step: CompactionStep | undefined): string {
	if (!step) return `${label} · Esc stops`;
	switch (step.kind) {
		case "reading":
			return `${label} · ${describeProgress(step.read, step.total)} read · Esc stops`;
		case "summarising":
			return `${label} · summarising part ${step.piece} of ${step.pieces} · Esc stops`;
	}
}
