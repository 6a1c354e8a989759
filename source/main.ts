import meow from "meow";
import { runSessionsCommand } from "./cli/sessions-command.js";
import { type LogSink, setLogSink } from "./logger.js";

const HELP = `
  Usage
    $ xcsh sessions [list] [--all] [--json]     List the sessions of this project (or of all projects)
    $ xcsh sessions info <session.jsonl | id>   Show what a session file holds (read-only)
    $ xcsh history [query] [--limit N]          Recent prompts, or search them

  Options
    --session-dir <dir>  Use this session directory instead of the project's default
    --all                Every project, not just the current directory
    --json               Machine-readable output
    --limit <n>          How many rows (history; default 20)
    --help               Show this help
    --version            Show the version

  Sessions live in ~/.xcsh/agent (set XCSH_AGENT_DIR to use another directory).
`;

const cli = meow(HELP, {
	importMeta: import.meta,
	allowUnknownFlags: false,
	flags: {
		all: { type: "boolean", default: false },
		json: { type: "boolean", default: false },
		sessionDir: { type: "string" },
		limit: { type: "number", default: 20 },
	},
});

// CLI paths print diagnostics on stderr; the TUI keeps the default log file sink.
const stderrSink: LogSink = (level, message) => process.stderr.write(`xcsh: ${level}: ${message}\n`);

async function main(): Promise<number> {
	const [command, ...args] = cli.input;
	const io = {
		stdout: (text: string) => process.stdout.write(text),
		stderr: (text: string) => process.stderr.write(text),
		cwd: process.cwd(),
	};
	switch (command) {
		case undefined:
			cli.showHelp(0);
			return 0;
		case "sessions":
			setLogSink(stderrSink);
			return runSessionsCommand(
				args,
				{ all: cli.flags.all, json: cli.flags.json, sessionDir: cli.flags.sessionDir },
				io,
			);
		case "history": {
			const { runHistoryCommand } = await import("./cli/history-command.js");
			setLogSink(stderrSink);
			return runHistoryCommand(args.join(" "), { limit: cli.flags.limit, json: cli.flags.json }, io);
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
