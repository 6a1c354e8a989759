import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Editor, type EditorProps } from "../../components/editor/editor.js";
import { completePath } from "../../source/path-completion.js";
import { KEYS, plain, pressAndWaitFor, renderAndWait, waitForFrame } from "../helpers/ink.js";

// Colour on (before chalk loads) so the inverse-video cursor is visible in frames; `plain` strips it.
vi.hoisted(() => {
	process.env.FORCE_COLOR = "1";
});

type Instance = ReturnType<typeof render>;

const SHIFT_ENTER = "\x1b[13;2u"; // kitty keyboard protocol
const ALT_ENTER = "\x1b\r";
const CTRL_J = "\n";
const INVERSE = "\x1b[7m";
const INVERSE_OFF = "\x1b[27m";

const COMMANDS = [
	{ name: "help", description: "Show the commands" },
	{ name: "compact", description: "Summarise the conversation" },
	{ name: "/copy", description: "Copy the last answer" },
	{ name: "model", description: "Choose a model" },
];

let mounted: Instance[] = [];
let tempDirs: string[] = [];
afterEach(() => {
	for (const instance of mounted) instance.unmount();
	for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
	mounted = [];
	tempDirs = [];
});

/** The text rows inside the round border, without the border and its padding. */
function rows(frame: string): string[] {
	return frame
		.split("\n")
		.filter((line) => line.startsWith("│"))
		.map((line) => line.slice(2, -2).trimEnd());
}

/** Lines below the editor box (the completion list). */
function below(frame: string): string[] {
	const lines = frame.split("\n");
	return lines.slice(lines.findIndex((line) => line.startsWith("╰")) + 1).filter((line) => line.trim() !== "");
}

/** Tab completion relative to `dir`, as the app wires it for the session's directory. */
const completionIn = (dir: string) => (token: string) => completePath(dir, token);

async function mount(overrides: Partial<EditorProps> = {}) {
	const onSubmit = vi.fn<(text: string) => boolean | undefined>();
	const onEscape = vi.fn<() => void>();
	const onInterrupt = vi.fn<(isEmpty: boolean) => void>();
	const props: EditorProps = {
		width: 40,
		isActive: true,
		history: [],
		searchHistory: () => [],
		commands: COMMANDS,
		completePath: (token) => completePath(process.cwd(), token),
		placeholder: "Ask anything",
		onSubmit,
		onEscape,
		onInterrupt,
		...overrides,
	};
	const instance = await renderAndWait(<Editor {...props} />, (frame) => frame.includes("›"));
	mounted.push(instance);
	// Two matching checks mean a macrotask passed, so the input handler is subscribed.
	let checks = 0;
	await waitForFrame(instance, () => ++checks > 1);
	const press = (input: string, predicate: (frame: string) => boolean) => pressAndWaitFor(instance, input, predicate);
	/** Types one key at a time, like a person: each waits for the frame it changes. */
	const type = async (text: string) => {
		for (const char of text) await key(instance, char);
	};
	return { instance, props, onSubmit, onEscape, onInterrupt, press, type };
}

/**
 * Writes a key that changes the drawn frame (a letter, or a cursor move: the inverse cell moves) and
 * waits for the change. Keys that change nothing are checked through the visible key that follows.
 */
async function key(instance: Instance, input: string): Promise<void> {
	const before = instance.lastFrame();
	instance.stdin.write(input);
	await vi.waitFor(() => expect(instance.lastFrame()).not.toBe(before));
}

describe("typing and submitting", () => {
	it("shows the placeholder when empty and the typed text otherwise", async () => {
		const { instance, type } = await mount();
		expect(rows(plain(instance.lastFrame()))).toEqual(["› Ask anything"]);
		expect(instance.lastFrame()).toContain(`${INVERSE}A`);
		await type("hi 😀");
		expect(rows(plain(instance.lastFrame()))).toEqual(["› hi 😀"]);
	});

	it("submits on Enter and clears", async () => {
		const { onSubmit, press, type } = await mount();
		await type("hello");
		const frame = await press(KEYS.enter, (f) => f.includes("Ask anything"));
		expect(onSubmit).toHaveBeenCalledExactlyOnceWith("hello");
		expect(rows(frame)).toEqual(["› Ask anything"]);
	});

	it("does not submit empty or whitespace-only text", async () => {
		const { instance, onSubmit, type } = await mount();
		instance.stdin.write(KEYS.enter);
		await type("  ");
		instance.stdin.write(KEYS.enter);
		// keys apply in order: once the z shows, both Enters were handled
		await type("z");
		expect(onSubmit).not.toHaveBeenCalled();
		expect(rows(plain(instance.lastFrame()))).toEqual(["›   z"]);
	});

	it("inserts a newline on Shift+Enter, Alt+Enter and Ctrl+J", async () => {
		const { onSubmit, press, type } = await mount();
		await type("a");
		await press(SHIFT_ENTER, (f) => rows(f).length === 2);
		await type("b");
		await press(ALT_ENTER, (f) => rows(f).length === 3);
		await type("c");
		const frame = await press(CTRL_J, (f) => rows(f).length === 4);
		expect(rows(frame)).toEqual(["› a", "  b", "  c", ""]);
		expect(onSubmit).not.toHaveBeenCalled();
		await press(KEYS.enter, (f) => f.includes("Ask anything"));
		expect(onSubmit).toHaveBeenCalledWith("a\nb\nc\n");
	});

	it("inserts a bracketed paste literally, normalising CR and CRLF, without submitting", async () => {
		const { onSubmit, press } = await mount();
		const frame = await press("\x1b[200~a\r\nb\rc\x1b[201~", (f) => rows(f).length === 3);
		expect(rows(frame)).toEqual(["› a", "  b", "  c"]);
		expect(onSubmit).not.toHaveBeenCalled();
		await press(KEYS.enter, (f) => f.includes("Ask anything"));
		expect(onSubmit).toHaveBeenCalledWith("a\nb\nc");
	});

	it("edits with the cursor keys and shows the cursor in inverse video", async () => {
		const { instance, press, type } = await mount();
		await type("abd");
		await key(instance, KEYS.left);
		expect(instance.lastFrame()).toContain(`ab${INVERSE}d${INVERSE_OFF}`);
		await press("c", (f) => f.includes("abcd"));
		await key(instance, KEYS.backspace);
		await key(instance, KEYS.backspace);
		expect(rows(plain(instance.lastFrame()))).toEqual(["› ad"]);
		await key(instance, "\x15"); // Ctrl+U
		expect(instance.lastFrame()).toContain(`${INVERSE}d${INVERSE_OFF}`);
	});

	it("handles keys that arrive in one burst against the latest state", async () => {
		const { instance, onSubmit, press, type } = await mount();
		await type("ac");
		await press(`${KEYS.left}b${KEYS.right}`, (f) => rows(f)[0] === "› abc");
		instance.stdin.write(`${KEYS.left}${KEYS.enter}`);
		await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledWith("abc"));
	});

	it("wraps long lines to the width", async () => {
		const { press } = await mount({ width: 16 });
		const frame = await press("abcdefghijklmnop", (f) => rows(f).length === 2);
		expect(rows(frame)).toEqual(["› abcdefghij", "  klmnop"]);
	});

	it("replaces the text when textKey changes and reports changes through onChange", async () => {
		const onChange = vi.fn<(text: string) => void>();
		const { instance, props, type } = await mount({ initialText: "first", textKey: 1, onChange });
		expect(rows(plain(instance.lastFrame()))).toEqual(["› first"]);
		await type("!");
		// onChange runs in an effect, which Ink's legacy root flushes after the frame is written.
		await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith("first!"));
		instance.rerender(<Editor {...props} initialText={"edit me\nagain"} textKey={2} />);
		const frame = await waitForFrame(instance, (f) => f.includes("again"));
		expect(rows(frame)).toEqual(["› edit me", "  again"]);
		await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith("edit me\nagain"));
	});

	it("ignores typing while disabled but still reports Escape", async () => {
		const { instance, onEscape, onSubmit } = await mount({ disabled: true });
		instance.stdin.write("x");
		instance.stdin.write(KEYS.enter);
		instance.stdin.write(KEYS.escape);
		// Escape is handled after x and Enter: once it is reported, they were ignored
		await vi.waitFor(() => expect(onEscape).toHaveBeenCalledOnce());
		expect(rows(plain(instance.lastFrame()))).toEqual(["› Ask anything"]);
		expect(instance.lastFrame()).not.toContain(INVERSE);
		expect(onSubmit).not.toHaveBeenCalled();
	});
});

describe("Escape and Ctrl+C", () => {
	it("calls onEscape only on an empty editor", async () => {
		const { instance, onEscape, type } = await mount();
		await type("x");
		instance.stdin.write(KEYS.escape);
		await key(instance, KEYS.backspace);
		expect(onEscape).not.toHaveBeenCalled();
		instance.stdin.write(KEYS.escape);
		await vi.waitFor(() => expect(onEscape).toHaveBeenCalledOnce());
	});

	it("calls onInterrupt with whether the editor is empty", async () => {
		const { instance, onInterrupt, type } = await mount();
		instance.stdin.write(KEYS.ctrlC);
		await vi.waitFor(() => expect(onInterrupt).toHaveBeenLastCalledWith(true));
		await type("x");
		instance.stdin.write(KEYS.ctrlC);
		await vi.waitFor(() => expect(onInterrupt).toHaveBeenLastCalledWith(false));
		expect(rows(plain(instance.lastFrame()))).toEqual(["› x"]);
	});
});

describe("history", () => {
	it("browses with ↑ on the first line and ↓ on the last, restoring the draft", async () => {
		const { press, type } = await mount({ history: ["newest", "older"] });
		await type("draft");
		await press(KEYS.up, (f) => rows(f)[0] === "› newest");
		await press(KEYS.up, (f) => rows(f)[0] === "› older");
		await press(KEYS.down, (f) => rows(f)[0] === "› newest");
		const frame = await press(KEYS.down, (f) => rows(f)[0] === "› draft");
		expect(rows(frame)).toEqual(["› draft"]);
	});

	it("moves between lines before browsing in multi-line text", async () => {
		const { instance, press } = await mount({ history: ["old"] });
		await press("one\ntwo", (f) => rows(f).length === 2);
		await key(instance, KEYS.up);
		expect(instance.lastFrame()).toContain(`one${INVERSE} ${INVERSE_OFF}`);
		await press(KEYS.up, (f) => rows(f)[0] === "› old");
	});

	it("searches with Ctrl+R, cycles with Ctrl+R and accepts with Enter without submitting", async () => {
		const searchHistory = vi.fn((query: string) =>
			["fix the tests", "fix lint", "run build"].filter((entry) => entry.includes(query)),
		);
		const { onSubmit, press, type } = await mount({ searchHistory, width: 60 });
		await type("draft");
		await press(KEYS.ctrlR, (f) => f.includes("(reverse-i-search)'': "));
		await type("fi");
		expect(searchHistory).toHaveBeenCalledWith("f");
		expect(searchHistory).toHaveBeenLastCalledWith("fi");
		await press(KEYS.ctrlR, (f) => f.includes("(reverse-i-search)'fi': fix lint"));
		await press(KEYS.ctrlR, (f) => f.includes("(reverse-i-search)'fi': fix the tests"));
		const frame = await press(KEYS.enter, (f) => !f.includes("reverse-i-search"));
		expect(rows(frame)).toEqual(["› fix the tests"]);
		expect(onSubmit).not.toHaveBeenCalled();
	});

	it("shows a multi-line match on one line and accepts it with its newlines", async () => {
		const { press } = await mount({ searchHistory: () => ["first line\nsecond line"], width: 60 });
		await press(KEYS.ctrlR, (f) => f.includes("reverse-i-search"));
		await press("l", (f) => f.includes("(reverse-i-search)'l': first line ⏎ second line"));
		const frame = await press(KEYS.enter, (f) => !f.includes("reverse-i-search"));
		expect(rows(frame)).toEqual(["› first line", "  second line"]);
	});

	it("restores the text when the search is cancelled with Escape", async () => {
		const { press, type } = await mount({ searchHistory: () => ["fix the tests"] });
		await type("draft");
		await press(KEYS.ctrlR, (f) => f.includes("reverse-i-search"));
		await press("x", (f) => f.includes("(reverse-i-search)'x': fix the tests"));
		const frame = await press(KEYS.escape, (f) => !f.includes("reverse-i-search"));
		expect(rows(frame)).toEqual(["› draft"]);
	});
});

describe("slash command completion", () => {
	it("lists commands matching the prefix with descriptions; Tab completes the selection", async () => {
		const { press, type } = await mount();
		const all = await press("/", (f) => f.includes("Choose a model"));
		expect(below(all)).toEqual([
			"  ▸ /help     Show the commands",
			"    /compact  Summarise the conversation",
			"    /copy     Copy the last answer",
			"    /model    Choose a model",
		]);
		await type("c");
		const filtered = await press(KEYS.down, (f) => f.includes("▸ /copy"));
		expect(below(filtered)).toEqual(["    /compact  Summarise the conversation", "  ▸ /copy     Copy the last answer"]);
		const done = await press(KEYS.tab, (f) => !f.includes("Copy the last answer"));
		expect(rows(done)).toEqual(["› /copy"]);
		await type("x");
		const final = await press(KEYS.enter, (f) => f.includes("Ask anything"));
		expect(below(final)).toEqual([]);
	});

	it("submits what is typed on Enter, even with the list open", async () => {
		const { onSubmit, press } = await mount();
		await press("/he", (f) => f.includes("Show the commands"));
		await press(KEYS.enter, (f) => f.includes("Ask anything"));
		expect(onSubmit).toHaveBeenCalledWith("/he");
	});

	it("hides the list on Escape without calling onEscape", async () => {
		const { onEscape, press } = await mount();
		await press("/m", (f) => f.includes("Choose a model"));
		await press(KEYS.escape, (f) => !f.includes("Choose a model"));
		expect(onEscape).not.toHaveBeenCalled();
	});

	it("shows at most 8 rows with markers for hidden ones", async () => {
		const commands = Array.from({ length: 12 }, (_, index) => ({
			name: `cmd${String(index).padStart(2, "0")}`,
			description: `command ${index}`,
		}));
		const { press } = await mount({ commands, width: 50 });
		const first = await press("/", (f) => f.includes("cmd00"));
		expect(below(first)).toHaveLength(8);
		expect(below(first)[7]).toContain("▼ /cmd07");
		let frame = first;
		for (let step = 1; step <= 6; step++) frame = await press(KEYS.down, (f) => f.includes(`▸ /cmd0${step}`));
		expect(below(frame)[0]).toContain("▲ /cmd02");
		expect(below(frame)).toHaveLength(8);
	});
});

describe("file path completion", () => {
	function project(): string {
		const dir = mkdtempSync(join(tmpdir(), "xcsh-editor-"));
		tempDirs.push(dir);
		mkdirSync(join(dir, "src"));
		writeFileSync(join(dir, "src", "editor.ts"), "");
		writeFileSync(join(dir, "src", "editor-buffer.ts"), "");
		writeFileSync(join(dir, "package.json"), "");
		return dir;
	}

	it("completes a single match and the common prefix of several, listing them", async () => {
		const { press, type } = await mount({ completePath: completionIn(project()) });
		await type("read pack");
		await press(KEYS.tab, (f) => f.includes("package.json"));
		await type(" s");
		await press(KEYS.tab, (f) => f.includes("› read package.json src/"));
		await type("e");
		const frame = await press(KEYS.tab, (f) => f.includes("editor-buffer.ts"));
		expect(rows(frame)).toEqual(["› read package.json src/editor"]);
		expect(below(frame)).toEqual(["    editor-buffer.ts", "    editor.ts"]);
		const typed = await press(".", (f) => !f.includes("editor-buffer.ts"));
		expect(rows(typed)).toEqual(["› read package.json src/editor."]);
	});

	it("says how many candidates are not shown", async () => {
		const dir = project();
		for (let index = 0; index < 10; index++) writeFileSync(join(dir, `note-${index}.md`), "");
		const { press } = await mount({ completePath: completionIn(dir) });
		await press("no", (f) => f.includes("› no"));
		const frame = await press(KEYS.tab, (f) => f.includes("more"));
		expect(rows(frame)).toEqual(["› note-"]);
		expect(below(frame)).toHaveLength(8);
		expect(below(frame)[7]).toBe("    … +3 more");
	});
});

describe("the screen's keys through the editor's one handler", () => {
	it("offers every key to the screen first; a key it takes never reaches the editor", async () => {
		const seen: string[] = [];
		const onScreenKey = vi.fn((action: string) => {
			seen.push(action);
			return action === "home";
		});
		const { press, type } = await mount({ onScreenKey });
		await type("ab");
		// Home was the screen's: the cursor stays at the end.
		await press(KEYS.home, () => seen.includes("home"));
		await press("c", (f) => rows(f)[0] === "› abc");
		// ← was not: the editor moves the cursor.
		await press(KEYS.left, () => seen.includes("left"));
		await press("x", (f) => rows(f)[0] === "› abxc");
		expect(seen).toEqual(["home", "left"]);
	});
});
