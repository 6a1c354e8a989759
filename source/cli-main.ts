import type { ThinkingLevel } from "@mariozechner/pi-agent-core";
import meow from "meow";
import { processIo } from "./cli/cli-io.js";
import { unknownFlags, unknownFlagsMessage } from "./cli/unknown-flags.js";
import { type LogSink, setLogSink } from "./logger.js";
import { TWO_PARTS_BELOW_BYTES } from "./session/read-thresholds.js";

const HELP = `
  Usage
    $ xcsh                                      The full-screen agent (in a terminal)
    $ xcsh -p "prompt"                          Run one agent turn and print the answer (or pipe the prompt on stdin)
    $ xcsh sessions [list] [--all] [--json]     List the sessions of this project (or of all projects)
    $ xcsh sessions info <session.jsonl | id>   Show what a session file holds (read-only)
    $ xcsh sessions purge --older-than 30d      Permanently delete trash items older than 30d (12h, 90m, …)
    $ xcsh doctor <session.jsonl> | --all       Check session files for damage (read-only; --fix repairs)
    $ xcsh doctor --slim <session.jsonl>        Move big tool results and images to the blob store (with a .bak)
    $ xcsh history [query] [--limit N]          Recent prompts, or search them
    $ xcsh search <words…> [--all] [--json]     Search the text of past sessions (this project, or --all)
                                                --role user|assistant|tool, --since/--until <when>
    $ xcsh shares [revoke <id>]                 Everything shared so far; revoke deletes the gist (or asks your share module)
    $ xcsh --export <session.jsonl> [out.html]  Write a session as a self-contained HTML page (or .md, .json)
    $ xcsh export <session.jsonl> [out] --format pi|atif|openai-sft
                                                The same; pi: a JSONL pi reads fully, atif: trajectories for
                                                evals, openai-sft: chat fine-tuning lines (one per branch)
    $ xcsh checkpoints <session | id> [--json]  The turns that changed files (entry id, time, prompt, +/- lines)
    $ xcsh restore <session | id> <entry-id>    Put the files and the conversation back to that entry
                                                (--code-only, --conversation-only, --dry-run, --yes, --json)
    $ xcsh restore <session | id> --undo        Undo the last restore (a guard checkpoint kept the files)
    $ xcsh diff <session | id> <entry> [<entry>]  What changed in the files from an entry to another (or to now)
    $ xcsh import <file|dir>…                   Bring Claude Code, Codex, Gemini CLI or pi sessions into xcsh
                                                (--from <tool>, --dry-run, --json, --cwd <dir> for Gemini's project)
    $ xcsh import --scan                        List the other agents' sessions found in their usual places
    $ xcsh import --scan --auto on|off          Import what is new there in the background while xcsh runs (off by default)

  Options
    -p, --print          Non-interactive: send the prompt, print the answer, exit
    --model <p/id>       Model to use, e.g. anthropic/claude-sonnet-4-6 (default: first configured, else offline)
    --thinking <level>   off, minimal, low, medium, high, xhigh
    -c, --continue       Continue this terminal's (or the newest) session of this project
    -r, --resume <id>    Resume a session by id prefix or path
    --no-session         Keep the session in memory only
    --extension <path>   Load an extension module (repeatable)
    --list-models        Show the models xcsh can use
    --no-redact          --export: keep secrets (they are redacted by default)
    --format <f>         --export: html (default), md, json, pi, atif or openai-sft (else taken from the
                         output's .html/.md/.json; a .jsonl output needs pi, atif or openai-sft)
    --force              --export: replace an existing output file (never a session file)
    --branch             --export: only the path to the session's last entry (atif, openai-sft: not every branch)
    --focused            --export md/json: only the prompts and the final answers
    --collapse-tools     --export: keep only the first lines of each tool result
    --system             --export openai-sft: put the system prompt first
    --thinking           --export openai-sft: keep the reasoning (as reasoning_content)
    --session-dir <dir>  Use this session directory instead of the project's default
    --all                Every project, not just the current directory
    --json               Machine-readable output
    --limit <n>          How many rows (history, search; default 20)
    --role <role>        search: only user, assistant or tool messages
    --since <when>       search: entries from then on: 2026-11-01 (that day's start), an ISO time, or 30m/12h/7d/2w ago
    --until <when>       search: entries up to then: 2026-11-01 (that day's end), an ISO time, or 30m/12h/7d/2w ago
    --fix                doctor: back up, quarantine bad lines, rewrite atomically, remove stale locks
    --slim               doctor --slim <session.jsonl>: tool result texts of 32 KB or more and inline images go to the blob store
    --unlock             doctor --unlock <session.jsonl>: break a lock of another host or a dead process (never a running xcsh here)
    --older-than <d>     sessions purge: only trash items older than this (30d, 12h, 90m)
    --code-only          restore: only the files; the conversation stays where it is
    --conversation-only  restore: only the conversation; the files stay as they are
    --dry-run            restore, import: say what would change, change nothing
    --yes                restore: overwrite files changed outside xcsh since its last checkpoint
    --undo               restore: put back what the last restore changed
    --from <tool>        import: claude-code, codex, gemini, opencode, pi or auto (default: detected per file)
    --cwd <dir>          import: the project for sessions that keep no working directory (Gemini CLI)
    --scan               import: look in ~/.claude, ~/.codex, ~/.gemini, opencode's and pi's folders
    --auto on|off        import --scan: a running xcsh imports what is new there in the background
    --help               Show this help
    --version            Show the version

  Sessions live in ~/.xcsh/agent (set XCSH_AGENT_DIR to use another directory).
`;

const FLAGS = {
	print: { type: "boolean", shortFlag: "p", default: false },
	model: { type: "string" },
	thinking: { type: "string" },
	continue: { type: "boolean", shortFlag: "c", default: false },
	resume: { type: "string", shortFlag: "r" },
	session: { type: "boolean", default: true },
	extension: { type: "string", isMultiple: true, default: [] as string[] },
	listModels: { type: "boolean", default: false },
	export: { type: "string" },
	redact: { type: "boolean", default: true },
	format: { type: "string" },
	focused: { type: "boolean", default: false },
	collapseTools: { type: "boolean", default: false },
	force: { type: "boolean", default: false },
	branch: { type: "boolean", default: false },
	system: { type: "boolean", default: false },
	all: { type: "boolean", default: false },
	json: { type: "boolean", default: false },
	sessionDir: { type: "string" },
	limit: { type: "number", default: 20 },
	fix: { type: "boolean", default: false },
	unlock: { type: "boolean", default: false },
	slim: { type: "boolean", default: false },
	olderThan: { type: "string" },
	role: { type: "string" },
	since: { type: "string" },
	until: { type: "string" },
	codeOnly: { type: "boolean", default: false },
	conversationOnly: { type: "boolean", default: false },
	dryRun: { type: "boolean", default: false },
	yes: { type: "boolean", default: false },
	undo: { type: "boolean", default: false },
	from: { type: "string" },
	cwd: { type: "string" },
	scan: { type: "boolean", default: false },
	auto: { type: "string" },
} as const;

// Unknown flags are allowed through meow and refused in main() with one line (meow's own message takes two).
const cli = meow(HELP, { importMeta: import.meta, allowUnknownFlags: true, flags: FLAGS });

// CLI paths print diagnostics on stderr; the TUI keeps the default log file sink.
const stderrSink: LogSink = (level, message) => process.stderr.write(`xcsh: ${level}: ${message}\n`);

async function readStdin(): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

/** Loads the UI's and the runtime's modules while a session is read in parts on threads of its own (see `TWO_PARTS_BELOW_BYTES`). */
function preloadUnder(bytes: number): void {
	if (bytes >= TWO_PARTS_BELOW_BYTES) return;
	for (const loading of [import("../components/run-app.js"), import("../controllers/runtime.js")])
		loading.catch(() => undefined);
}

/** `xcsh` in a terminal: the full-screen UI (Ink and the LLM layer load only here). */
async function runInteractive(io: { stderr: (text: string) => void; cwd: string }): Promise<number> {
	if (!process.stdin.isTTY || !process.stdout.isTTY) {
		io.stderr(
			'xcsh needs a terminal for its interactive UI. Use xcsh -p "prompt" (or pipe a prompt on stdin) to run without one.\n',
		);
		return 2;
	}
	const { flags } = cli;
	let thinkingLevel: ThinkingLevel | undefined;
	if (flags.thinking !== undefined) {
		const { parseThinkingLevel } = await import("./agent/models/thinking-levels.js");
		const parsed = parseThinkingLevel(flags.thinking);
		if (!parsed.ok) {
			io.stderr(`${parsed.error}\n`);
			return 2;
		}
		thinkingLevel = parsed.level;
	}
	const { createSessionManager } = await import("./cli/session-setup.js");
	const sessionFlags = {
		noSession: !flags.session,
		continue: flags.continue,
		resume: flags.resume === "" ? undefined : flags.resume,
		sessionDir: flags.sessionDir,
	};
	// A --resume <id> from another project asks before forking: do it before the screen is taken over.
	// --continue too: a big session shows how much of it was read, and Escape stops it.
	const { withReadProgress } = await import("./cli/read-progress.js");
	const earlyNotices: string[] = [];
	const early =
		sessionFlags.resume !== undefined || sessionFlags.continue
			? await withReadProgress(sessionFlags.resume ?? "the most recent session", (progress) =>
					createSessionManager(sessionFlags, io.cwd, undefined, (text) => earlyNotices.push(text), {
						...progress,
						onReadApart: preloadUnder,
					}),
				)
			: undefined;
	const { runApp } = await import("../components/run-app.js");
	const code = await runApp({
		// The picker is drawn from the session index at once; the rest loads behind it.
		...(flags.resume === ""
			? {
					initialScreen: "resume" as const,
					earlyPicker: async () =>
						new (await import("../controllers/early-picker.js")).EarlyPickerController({
							cwd: io.cwd,
							sessionDir: flags.sessionDir,
						}),
				}
			: {}),
		// The runtime (and with it the LLM layer) is imported only after the first frame is drawn.
		load: async (earlyPicker) =>
			(await import("../controllers/runtime.js")).buildRuntime({
				earlyPicker,
				cwd: io.cwd,
				sessionManager: async (notify) => {
					for (const text of earlyNotices) notify(text);
					return early ?? (await createSessionManager(sessionFlags, io.cwd, undefined, notify));
				},
				model: flags.model,
				thinkingLevel,
				extensions: flags.extension,
				sessionDir: flags.sessionDir,
			}),
	});
	// The UI is gone and the session is flushed; stdin and timers left behind by Ink must not keep the process alive.
	process.exit(code);
}

/** `xcsh --export <input> [output]` and `xcsh export <input> [output]`. */
async function runExport(
	input: string,
	rest: readonly string[],
	io: { stdout: (text: string) => void; stderr: (text: string) => void; cwd: string },
): Promise<number> {
	const { runExportCommand, exportThinking } = await import("./cli/export-command.js");
	const { redact, format, focused, collapseTools, force, branch, system } = cli.flags;
	const thinking = exportThinking(cli.flags.thinking, rest);
	return runExportCommand(
		input,
		thinking.output,
		{ redact, format, focused, collapseTools, force, branch, system, thinking: thinking.on },
		io,
	);
}

async function main(): Promise<number> {
	const unknown = unknownFlags(FLAGS, cli.unnormalizedFlags);
	if (unknown.length > 0) {
		process.stderr.write(`${unknownFlagsMessage(unknown)}\n`);
		return 2;
	}
	const [command, ...args] = cli.input;
	const io = processIo();
	const { flags } = cli;
	if (flags.export !== undefined) return runExport(flags.export, cli.input, io);
	if (flags.listModels) {
		const { runListModels } = await import("./cli/list-models-command.js");
		return runListModels(io);
	}
	if (flags.print || (command === undefined && !process.stdin.isTTY)) {
		const piped = process.stdin.isTTY ? "" : await readStdin();
		const prompt = [cli.input.join(" "), piped.trim()].filter(Boolean).join("\n\n");
		const { runPrintMode } = await import("./cli/print-mode.js");
		setLogSink(stderrSink);
		return runPrintMode(
			prompt,
			{
				model: flags.model,
				thinking: flags.thinking,
				noSession: !flags.session,
				continue: flags.continue,
				resume: flags.resume,
				sessionDir: flags.sessionDir,
				extension: flags.extension,
			},
			io,
		);
	}
	switch (command) {
		case undefined:
			return runInteractive(io);
		case "sessions": {
			const { runSessionsCommand } = await import("./cli/sessions-command.js");
			setLogSink(stderrSink);
			return runSessionsCommand(
				args,
				{ all: cli.flags.all, json: cli.flags.json, sessionDir: cli.flags.sessionDir, olderThan: cli.flags.olderThan },
				io,
			);
		}
		case "doctor": {
			const { runDoctorCommand } = await import("./cli/doctor-command.js");
			setLogSink(stderrSink);
			const { all, fix, json, unlock, slim } = flags;
			return runDoctorCommand(args, { all, fix, json, unlock, slim }, io);
		}
		case "search": {
			const { runSearchCommand } = await import("./cli/search-command.js");
			setLogSink(stderrSink);
			const { json, limit, all, role, since, until } = flags;
			return runSearchCommand(args.join(" "), { json, limit, all, role, since, until }, io);
		}
		case "shares": {
			const { runSharesCommand } = await import("./cli/shares-command.js");
			return runSharesCommand(args, io);
		}
		case "history": {
			const { runHistoryCommand } = await import("./cli/history-command.js");
			setLogSink(stderrSink);
			return runHistoryCommand(args.join(" "), { limit: flags.limit, json: flags.json }, io);
		}
		case "checkpoints": {
			const { runCheckpointsCommand } = await import("./cli/checkpoints-command.js");
			setLogSink(stderrSink);
			return runCheckpointsCommand(args, { json: flags.json }, io);
		}
		case "restore": {
			const { runRestoreCommand } = await import("./cli/restore-command.js");
			setLogSink(stderrSink);
			const { codeOnly, conversationOnly, dryRun, yes, json, undo } = flags;
			return runRestoreCommand(args, { codeOnly, conversationOnly, dryRun, yes, json, undo }, io);
		}
		case "diff": {
			const { runDiffCommand } = await import("./cli/diff-command.js");
			setLogSink(stderrSink);
			return runDiffCommand(args, io);
		}
		case "export":
			return runExport(args[0] ?? "", args.slice(1), io);
		case "import": {
			const { runImportCommand } = await import("./cli/import-command.js");
			setLogSink(stderrSink);
			const { from, dryRun, json, cwd, scan, auto } = flags;
			return runImportCommand(args, { from, dryRun, json, cwd, scan, auto }, io);
		}
		default:
			io.stderr(`Unknown command: ${command}. Run xcsh --help for usage.\n`);
			return 2;
	}
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.stderr.write(`xcsh: ${error instanceof Error ? error.message : String(error)}\n`);
		process.exitCode = 1;
	},
);
