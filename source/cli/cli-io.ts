/** Where a CLI command writes, and what it runs against. */
export interface CliIo {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	/** Whether stderr is a terminal (live progress goes there); false when absent. */
	stderrIsTTY?: boolean;
	/** Terminal columns of stdout when it is a terminal: tables are cut to fit. */
	columns?: number | undefined;
	cwd: string;
}
