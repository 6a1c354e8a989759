import { afterEach, describe, expect, it, vi } from "vitest";
import { MODEL_PICKER_FOOTER, ModelPicker } from "../../components/model-picker/model-picker.js";
import type { ModelChoice } from "../../source/commands/types.js";
import { KEYS, plain, pressAndWaitFor, renderAndWait } from "../helpers/ink.js";

const MODELS: ModelChoice[] = [
	{ ref: "anthropic/claude-sonnet-4-5", name: "Claude Sonnet 4.5", contextWindow: 200_000, reasoning: true },
	{ ref: "openai/gpt-5", name: "GPT-5", contextWindow: 400_000, reasoning: true },
	{ ref: "local/qwen", name: "qwen", contextWindow: 32_768, reasoning: false },
	{ ref: "xcsh/offline", name: "Offline", contextWindow: 0, reasoning: false },
];

/** The row carrying the selection marker. */
function selectedRow(frame: string): string {
	return frame.split("\n").find((line) => line.startsWith("›")) ?? "";
}

let unmount: (() => void) | undefined;
afterEach(() => {
	unmount?.();
	unmount = undefined;
});

async function show(current = "openai/gpt-5") {
	const props = { onSelect: vi.fn(), onCancel: vi.fn() };
	const ui = await renderAndWait(
		<ModelPicker models={MODELS} current={current} height={10} width={100} {...props} />,
		(f) => f.includes("local/qwen"),
	);
	unmount = ui.unmount;
	return { ui, ...props };
}

describe("ModelPicker", () => {
	it("lists every model with its window, opens on the current one, and Enter picks the selected one", async () => {
		const { ui, onSelect } = await show();
		const frame = plain(ui.lastFrame());
		expect(frame).toContain("Switch model — now openai/gpt-5");
		expect(frame).toContain(MODEL_PICKER_FOOTER);
		expect(selectedRow(frame)).toContain("● openai/gpt-5");
		expect(frame).toContain("anthropic/claude-sonnet-4-5  Claude Sonnet 4.5 · 200k ctx · thinks");
		expect(frame).toContain("local/qwen  33k ctx");
		await pressAndWaitFor(ui, KEYS.down, (f) => selectedRow(plain(f)).includes("local/qwen"));
		ui.stdin.write(KEYS.enter);
		expect(onSelect).toHaveBeenCalledWith("local/qwen");
	});

	it("typing filters by ref or name; a filter and Enter in one read pick the match", async () => {
		const { ui, onSelect } = await show();
		await pressAndWaitFor(ui, "sonnet", (f) => plain(f).includes("Filter: sonnet") && !plain(f).includes("local/qwen"));
		await pressAndWaitFor(ui, "zz", (f) => plain(f).includes('No models match "sonnetzz"'));
		ui.stdin.write(`${KEYS.backspace}${KEYS.backspace}\r`);
		expect(onSelect).toHaveBeenCalledWith("anthropic/claude-sonnet-4-5");
	});

	it("Escape clears the filter first, then goes back", async () => {
		const { ui, onCancel, onSelect } = await show();
		await pressAndWaitFor(ui, "qwen", (f) => plain(f).includes("Filter: qwen"));
		await pressAndWaitFor(ui, KEYS.escape, (f) => plain(f).includes("Filter: type to search"));
		expect(onCancel).not.toHaveBeenCalled();
		ui.stdin.write(KEYS.escape);
		await vi.waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1));
		expect(onSelect).not.toHaveBeenCalled();
	});
});
