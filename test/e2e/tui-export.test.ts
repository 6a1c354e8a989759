import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEYS } from "../helpers/keys.js";
import { PtyTerminal } from "../helpers/pty-terminal.js";
import { useTempAgentDir } from "../helpers/temp-agent-dir.js";

function has(command: string): boolean {
	try {
		execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

const canUseX = has("xvfb-run") && has("xsel");

describe("export, dump and share from the full-screen UI", () => {
	const temp = useTempAgentDir();
	let project: string;
	let bin: string;
	let term: PtyTerminal | undefined;

	beforeEach(() => {
		project = join(temp.root, "my project");
		bin = join(temp.root, "bin");
		mkdirSync(project);
		mkdirSync(bin);
		// A browser stand-in that records what it was asked to open.
		writeFileSync(join(bin, "browser"), `#!/bin/sh\necho "$1" >> "${join(temp.root, "opened.txt")}"\n`);
		chmodSync(join(bin, "browser"), 0o755);
	});
	afterEach(async () => {
		await term?.stop();
		term = undefined;
	});

	function start(env: NodeJS.ProcessEnv = {}, shell?: string): PtyTerminal {
		term = new PtyTerminal({
			cwd: project,
			agentDir: temp.agentDir,
			cols: 110,
			rows: 32,
			env: { BROWSER: join(bin, "browser"), PATH: `${bin}:${process.env.PATH}`, ...env },
			...(shell ? { shell } : {}),
		});
		return term;
	}

	async function chat(t: PtyTerminal, text: string, expected: string): Promise<void> {
		await t.type(text);
		t.write("\r");
		await t.waitFor(expected);
		await t.waitFor("Ask anything");
	}

	async function command(t: PtyTerminal, text: string): Promise<void> {
		await t.type(text);
		t.write("\r");
	}

	const opened = () =>
		existsSync(join(temp.root, "opened.txt")) ? readFileSync(join(temp.root, "opened.txt"), "utf8") : "";
	const flat = (s: string) => s.replace(/\n/g, "");

	it("/export writes a quoted path with spaces, shows it and opens it; --copy is refused", async () => {
		const t = start();
		await t.waitFor("Type a prompt");
		await chat(t, "hello export", 'You said: "hello export"');
		await command(t, '/export "out dir/my session.html"');
		const target = join(project, "out dir", "my session.html");
		const screen = await t.waitFor((s) => flat(s).includes("Exported to:"));
		expect(flat(screen)).toContain(target);
		expect(readFileSync(target, "utf8")).toContain("hello export");
		await t.waitFor(() => opened().includes("my session.html"));
		await command(t, "/export --copy");
		await t.waitFor("Use /dump to copy the session to the clipboard");
	});

	it("/export refuses to replace an existing file until --force, and refuses the session file itself", async () => {
		const t = start();
		await t.waitFor("Type a prompt");
		await chat(t, "hello again", 'You said: "hello again"');
		const page = join(project, "page.html");
		writeFileSync(page, "keep me");
		await command(t, "/export page.html");
		await t.waitFor((s) => flat(s).includes("already exists; add --force to replace it"));
		expect(readFileSync(page, "utf8")).toBe("keep me");
		await command(t, "/export page.html --force");
		await t.waitFor((s) => flat(s).includes(`Exported to: ${page}`));
		expect(readFileSync(page, "utf8")).toContain("hello again");
		const sessions = join(temp.agentDir, "sessions");
		const [folder] = readdirSync(sessions);
		const name = readdirSync(join(sessions, folder!)).find((f) => f.endsWith(".jsonl"))!;
		const file = join(sessions, folder!, name);
		const before = readFileSync(file);
		await command(t, `/export "${file}" --force`);
		// notices are word-wrapped: the row break stands where a space was
		await t.waitFor((s) => s.replace(/\s+/g, " ").includes(".jsonl is the session format; use .html, .md or .json"));
		expect(readFileSync(file).equals(before)).toBe(true);
	});

	it("/dump with nothing yet says so; --no-session exports HTML from memory and offers /share", async () => {
		const t = start({}, "$XCSH --no-session");
		await t.waitFor("Type a prompt");
		await command(t, "/dump");
		await t.waitFor("No messages to dump yet");
		await chat(t, "memory only", 'You said: "memory only"');
		const page = join(project, "memory.html");
		await command(t, "/export memory.html");
		await t.waitFor((s) => flat(s).includes(`Exported to: ${page}`));
		expect(readFileSync(page, "utf8")).toContain("memory only");
		await command(t, "/share");
		await t.waitFor("Enter/y share");
		t.write("n");
		await t.waitFor("Share cancelled");
	});

	it.skipIf(!canUseX)("/dump puts the session on the real clipboard (Xvfb + xsel; skipped without them)", async () => {
		const out = join(temp.root, "clipboard.txt");
		const t = start({}, `xvfb-run -a sh -c '$XCSH; xsel --clipboard --output > "${out}"; echo clipboard-read'`);
		await t.waitFor("Type a prompt", 20_000);
		await chat(t, "copy me please", 'You said: "copy me please"');
		await command(t, "/dump");
		await t.waitFor("Session copied to the clipboard");
		t.write(KEYS.ctrlC);
		await t.waitFor("Press Ctrl+C again to quit");
		t.write(KEYS.ctrlC);
		// xcsh has exited and xsel read the clipboard it left behind
		await t.waitFor("clipboard-read");
		const text = readFileSync(out, "utf8");
		expect(text).toContain("# System prompt");
		expect(text).toContain("copy me please");
	});

	it("/share with a custom share module: the URL is shown and opened; a throwing module is an error, no gist", async () => {
		writeFileSync(join(bin, "gh"), `#!/bin/sh\necho "$@" >> "${join(temp.root, "gh-calls.txt")}"\n`);
		chmodSync(join(bin, "gh"), 0o755);
		mkdirSync(temp.agentDir, { recursive: true });
		writeFileSync(
			join(temp.agentDir, "share.mjs"),
			`import { readFileSync } from "node:fs";\nexport default async (path) => (readFileSync(path, "utf8").includes("share me") ? { url: "https://share.example/abc", message: "Shared privately" } : undefined);\n`,
		);
		const t = start();
		await t.waitFor("Type a prompt");
		await chat(t, "share me", 'You said: "share me"');
		await command(t, "/share");
		await t.waitFor("Enter/y share");
		// The title wraps inside the box at this width: its parts, not the whole line.
		expect(t.screen()).toContain("to your share module");
		expect(t.screen()).toContain("/agent/share.mjs?");
		t.write("y");
		await t.waitFor("https://share.example/abc");
		await t.waitFor(() => opened().includes("https://share.example/abc"));
		writeFileSync(
			join(temp.agentDir, "share.mjs"),
			`export default async () => { throw new Error("upload refused"); };\n`,
		);
		await command(t, "/share --yes");
		await t.waitFor("upload refused");
		expect(existsSync(join(temp.root, "gh-calls.txt"))).toBe(false);
		expect(readdirSync(project).filter((n) => n.endsWith(".html"))).toEqual([]);
	});

	it("/share without a module uses gh; Escape during a slow gist kills gh and says Share cancelled", async () => {
		const pidFile = join(temp.root, "gh.pid");
		writeFileSync(
			join(bin, "gh"),
			`#!/bin/sh\nif [ "$1" = "auth" ]; then echo "Logged in to github.com account tester (keyring)"; exit 0; fi\necho $$ > "${pidFile}"\nexec sleep 60\n`,
		);
		chmodSync(join(bin, "gh"), 0o755);
		const t = start();
		await t.waitFor("Type a prompt");
		await chat(t, "gist me", 'You said: "gist me"');
		await command(t, "/share");
		await t.waitFor("Enter/y share");
		expect(t.screen()).toContain("to a secret gist on github.com/tester?");
		t.write("\r");
		await t.waitFor("Creating gist");
		await t.waitFor(() => existsSync(pidFile));
		const pid = Number(readFileSync(pidFile, "utf8"));
		t.write("\x1b");
		await t.waitFor("Share cancelled");
		await t.waitFor(() => {
			try {
				process.kill(pid, 0);
				return false;
			} catch {
				return true;
			}
		});
		expect(await t.waitFor("Ask anything")).toContain("Share cancelled");
	});

	it("/share with gh: preview and gist URLs shown, the preview opened", async () => {
		writeFileSync(
			join(bin, "gh"),
			`#!/bin/sh\nif [ "$1" = "auth" ]; then exit 0; fi\necho "$@" >> "${join(temp.root, "gh-calls.txt")}"\necho "https://gist.github.com/someone/0123456789abcdef"\n`,
		);
		chmodSync(join(bin, "gh"), 0o755);
		const t = start();
		await t.waitFor("Type a prompt");
		await chat(t, "gist me", 'You said: "gist me"');
		await command(t, "/share --yes");
		const screen = flat(await t.waitFor((s) => flat(s).includes("Gist:")));
		expect(screen).toContain("Preview: https://gistpreview.github.io/?0123456789abcdef");
		expect(screen).toContain("Gist: https://gist.github.com/someone/0123456789abcdef");
		expect(readFileSync(join(temp.root, "gh-calls.txt"), "utf8")).toMatch(/^gist create --public=false .+\.html\n$/);
		await t.waitFor(() => opened().includes("https://gistpreview.github.io/?0123456789abcdef"));
	});
});
