import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ChatView } from "../../components/chat/chat-view.js";
import { RowPainterContext } from "../../components/chat/row-painter-context.js";
import type { ChatItem } from "../../controllers/chat-controller.js";
import { ChatItems } from "../../controllers/chat-items.js";
import { type PaintWindow, RowPainter } from "../../source/render/row-painter.js";
import { plain, waitForFrame } from "../helpers/ink.js";

const ITEMS: ChatItem[] = Array.from({ length: 12 }, (_, i) => ({
	kind: "notice",
	id: `n${i}`,
	level: "info",
	text: `notice ${i}`,
}));

/** A painter that records the windows it is shown instead of writing them. */
class RecordingPainter extends RowPainter {
	readonly shown: (PaintWindow | undefined)[] = [];
	override show(window: PaintWindow): void {
		this.shown.push(window);
	}
	override hide(): void {
		this.shown.push(undefined);
	}
}

function Screen({ height }: { readonly height: number }) {
	return (
		<Box flexDirection="column" height={height} width={40}>
			<Text>title</Text>
			<ChatView
				parts={{ items: ChatItems.of(ITEMS), pending: undefined, pendingId: "p", running: [] }}
				showThinking={false}
				expandTools={false}
				width={40}
				initialHeight={height - 2}
				anchor={undefined}
				onDraw={() => undefined}
			/>
			<Text>editor</Text>
		</Box>
	);
}

describe("the chat view", () => {
	it("without a painter (not a terminal), Ink draws the window's rows", async () => {
		const instance = render(<Screen height={8} />);
		const frame = await waitForFrame(instance, (f) => f.includes("notice 11"));
		expect(frame).toContain("editor");
		instance.unmount();
	});

	it("with a painter, Ink lays out an empty box and the painter gets the rows at the box's place", async () => {
		const painter = new RecordingPainter({ isTTY: true } as unknown as NodeJS.WriteStream);
		const instance = render(
			<RowPainterContext.Provider value={painter}>
				<Screen height={8} />
			</RowPainterContext.Provider>,
		);
		await waitForFrame(instance, (f) => f.includes("editor"));
		const frame = plain(instance.lastFrame());
		expect(frame).not.toContain("notice");
		const last = painter.shown.at(-1);
		// below the one-row title, as tall as the box between title and editor
		expect(last?.top).toBe(2);
		expect(last?.height).toBe(6);
		expect(last?.columns).toBe(40);
		expect(last?.rows.map(plain).join("\n")).toContain("notice 11");
		expect(last?.rows.length).toBeLessThanOrEqual(6);
		instance.unmount();
		expect(painter.shown.at(-1)).toBeUndefined();
	});
});
