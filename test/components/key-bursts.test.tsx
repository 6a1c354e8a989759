import { Text, useInput } from "ink";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Editor, type EditorProps } from "../../components/editor/editor.js";
import { SessionSelector, type SessionSelectorProps } from "../../components/session-selector/session-selector.js";
import { useLatestInput } from "../../components/use-latest-input.js";
import { plainKey } from "../../controllers/key-reader.js";
import { completePath } from "../../source/path-completion.js";
import type { SessionInfo } from "../../source/session/types.js";
import { renderAndWait, waitForFrame } from "../helpers/ink.js";

let mounted: { unmount: () => void }[] = [];
afterEach(() => {
	for (const instance of mounted) instance.unmount();
	mounted = [];
});

type Seen = { input: string; key: Record<string, unknown>; paste?: boolean };

/** Records every call of Ink's own `useInput` (one key per write) and of `useLatestInput`. */
function Recorder({ ink, split }: { readonly ink: Seen[]; readonly split: Seen[] }) {
	useInput((input, key) => {
		ink.push({ input, key: { ...key } });
	});
	useLatestInput((input, key, paste) => {
		split.push({ input, key: { ...key }, paste });
	}, true);
	return <Text>{`${ink.length}/${split.length}`}</Text>;
}

describe("a read with many keys", () => {
	it("reaches handlers exactly as the same keys written one by one", async () => {
		const ink: Seen[] = [];
		const split: Seen[] = [];
		const instance = await renderAndWait(<Recorder ink={ink} split={split} />, (frame) => frame.includes("/"));
		mounted.push(instance);
		const keys = ["a", "B", "ñ", " ", "\r", "\x7f", "\b", "\t", "\x15", "\x03", "\n"];
		for (const key of keys) {
			const before = ink.length;
			instance.stdin.write(key);
			await vi.waitFor(() => expect(ink.length).toBe(before + 1));
		}
		const oneByOne = split.splice(0);
		ink.splice(0);
		instance.stdin.write(keys.join(""));
		await vi.waitFor(() => expect(split).toHaveLength(keys.length));
		expect(split).toEqual(oneByOne);
		// and the hand-written decoding agrees with Ink's, key by key
		keys.forEach((key, index) => {
			const { input, key: flags } = plainKey(key);
			expect(oneByOne[index]?.input).toBe(input);
			for (const [name, value] of Object.entries(flags)) expect(oneByOne[index]?.key[name]).toBe(value);
		});
	});
});

describe("the editor with a burst of keys", () => {
	function editor(overrides: Partial<EditorProps> = {}) {
		const props: EditorProps = {
			width: 40,
			isActive: true,
			history: [],
			searchHistory: () => [],
			commands: [],
			completePath: (token) => completePath(process.cwd(), token),
			placeholder: "Ask anything",
			onSubmit: vi.fn<(text: string) => boolean | undefined>(),
			onEscape: vi.fn(),
			onInterrupt: vi.fn(),
			...overrides,
		};
		return props;
	}

	it("applies three Backspaces of one read", async () => {
		const instance = await renderAndWait(<Editor {...editor()} />, (frame) => frame.includes("Ask anything"));
		mounted.push(instance);
		instance.stdin.write("hello");
		await waitForFrame(instance, (frame) => frame.includes("› hello"));
		instance.stdin.write("\x7f\x7f\x7f");
		const frame = await waitForFrame(instance, (f) => !f.includes("hello"));
		expect(frame).toContain("› he ");
	});

	it("sends text followed by Enter in one read, and keeps it when the owner refuses", async () => {
		const onSubmit = vi.fn<(text: string) => boolean | undefined>().mockReturnValueOnce(true).mockReturnValue(false);
		const instance = await renderAndWait(<Editor {...editor({ onSubmit })} />, (f) => f.includes("Ask anything"));
		mounted.push(instance);
		instance.stdin.write("list files\r");
		await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledExactlyOnceWith("list files"));
		await waitForFrame(instance, (f) => f.includes("Ask anything"));
		instance.stdin.write("refused\r");
		await vi.waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith("refused"));
		// refused: the text stays, it is not cleared
		const frame = await waitForFrame(instance, (f) => f.includes("› refused"));
		expect(frame).not.toContain("Ask anything");
	});
});

describe("the session picker with a burst of keys", () => {
	const sessions: SessionInfo[] = ["parser work", "lockfile fix", "deploy notes"].map((first, i) => ({
		id: `id-${i}`,
		path: `/s/${i}.jsonl`,
		cwd: "/work",
		created: new Date(0),
		modified: new Date(1000 - i),
		size: 10,
		messageCount: 2,
		firstMessage: first,
	}));
	const props = (overrides: Partial<SessionSelectorProps>): SessionSelectorProps => ({
		sessions,
		loading: false,
		scope: "project",
		height: 10,
		width: 80,
		isActive: true,
		onSelect: vi.fn(),
		onCancel: vi.fn(),
		onDelete: vi.fn(),
		onRename: vi.fn(),
		onToggleScope: vi.fn(),
		...overrides,
	});

	it("erases three characters of the filter for three Backspaces in one read", async () => {
		const instance = render(<SessionSelector {...props({})} />);
		mounted.push(instance);
		await waitForFrame(instance, (f) => f.includes("deploy notes"));
		instance.stdin.write("lockzzz");
		await waitForFrame(instance, (f) => f.includes("Filter: lockzzz"));
		instance.stdin.write("\x7f\x7f\x7f");
		const frame = await waitForFrame(instance, (f) => /Filter: lock\s*$/m.test(f));
		expect(frame).toContain("lockfile fix");
	});

	it("opens the session the filter typed in the same read selects", async () => {
		const onSelect = vi.fn();
		const instance = render(<SessionSelector {...props({ onSelect })} />);
		mounted.push(instance);
		await waitForFrame(instance, (f) => f.includes("deploy notes"));
		instance.stdin.write("lockfile\r");
		await vi.waitFor(() => expect(onSelect).toHaveBeenCalledExactlyOnceWith("/s/1.jsonl"));
	});
});
