import { describe, expect, it } from "vitest";
import { filterColourOutput } from "../../source/render/colour.js";
import { paintSequence, RowPainter, rowPainterFor, SYNC_END, SYNC_START } from "../../source/render/row-painter.js";

const ESC = String.fromCharCode(27);

/** A terminal-sized stream that records what is written to it. */
function terminal(columns = 20, rows = 6) {
	const written: string[] = [];
	const stream = {
		isTTY: true,
		columns,
		rows,
		write: (chunk: string) => written.push(chunk) > 0,
	} as unknown as NodeJS.WriteStream;
	return { stream, written };
}

const WINDOW = { top: 1, height: 3, rows: [`${ESC}[36mone${ESC}[39m`, "two"], columns: 20 };
const PAINTED =
	`${ESC}7` +
	`${ESC}[1;1H${ESC}[0m${ESC}[2K${ESC}[36mone${ESC}[39m${ESC}[0m` +
	`${ESC}[2;1H${ESC}[0m${ESC}[2Ktwo${ESC}[0m` +
	`${ESC}[3;1H${ESC}[0m${ESC}[2K${ESC}[0m` +
	`${ESC}8`;

describe("the row painter", () => {
	it("draws a window at absolute rows: erase, row, reset; blank rows past the end; the cursor put back", () => {
		expect(paintSequence(WINDOW)).toBe(PAINTED);
		expect(paintSequence({ top: 5, height: 1, rows: ["x"] })).toBe(
			`${ESC}7${ESC}[5;1H${ESC}[0m${ESC}[2Kx${ESC}[0m${ESC}8`,
		);
	});

	it("paints a new window at once, in one synchronized update, and not again when it is the same", () => {
		const { stream, written } = terminal();
		const painter = new RowPainter(stream);
		painter.attach();
		painter.show(WINDOW);
		painter.show({ ...WINDOW, rows: [...WINDOW.rows] });
		expect(written).toEqual([SYNC_START + PAINTED + SYNC_END]);
	});

	it("paints again after every frame written meanwhile; a synchronized frame goes out with its rows in one write", () => {
		const { stream, written } = terminal();
		const painter = new RowPainter(stream);
		painter.attach();
		painter.show(WINDOW);
		written.length = 0;
		stream.write("frame");
		expect(written).toEqual(["frame", PAINTED]);
		written.length = 0;
		stream.write(SYNC_START);
		stream.write("frame");
		stream.write(SYNC_END);
		expect(written).toEqual([`${SYNC_START}frame${PAINTED}${SYNC_END}`]);
		// after Ink's erase of its previous frame and before the frame, whose transcript lines are empty
		written.length = 0;
		const erase = `${ESC}[2K${ESC}[1A${ESC}[2K${ESC}[G`;
		stream.write(SYNC_START);
		stream.write(`${ESC}[?25l`);
		stream.write(`${erase}\n\neditor\n`);
		stream.write(SYNC_END);
		expect(written).toEqual([`${SYNC_START}${ESC}[?25l${erase}${PAINTED}\n\neditor\n${SYNC_END}`]);
		// a frame as tall as the screen clears it all first: the rows go after the clear
		written.length = 0;
		const clear = `${ESC}[2J${ESC}[3J${ESC}[H`;
		stream.write(SYNC_START);
		stream.write(`${erase}${clear}\n\neditor`);
		stream.write(SYNC_END);
		expect(written).toEqual([`${SYNC_START}${erase}${clear}${PAINTED}\n\neditor${SYNC_END}`]);
	});

	it("a frame written while the view is about to show new rows waits for them: one write, the new rows", async () => {
		const { stream, written } = terminal();
		const painter = new RowPainter(stream);
		painter.attach();
		painter.expectRows();
		stream.write(SYNC_START);
		stream.write("frame");
		stream.write(SYNC_END);
		expect(written).toEqual([]);
		painter.show(WINDOW);
		expect(written).toEqual([`${SYNC_START}frame${PAINTED}${SYNC_END}`]);
		// rows that never come: the frame still goes out, by the end of the task
		written.length = 0;
		painter.expectRows();
		stream.write(SYNC_START);
		stream.write("frame");
		stream.write(SYNC_END);
		expect(written).toEqual([]);
		await Promise.resolve();
		expect(written).toEqual([`${SYNC_START}frame${PAINTED}${SYNC_END}`]);
	});

	it("stops painting when hidden, and gives write back when detached", () => {
		const { stream, written } = terminal();
		const painter = new RowPainter(stream);
		const write = stream.write;
		const detach = painter.attach();
		painter.show(WINDOW);
		painter.hide();
		written.length = 0;
		stream.write("frame");
		expect(written).toEqual(["frame"]);
		painter.show(WINDOW);
		detach();
		expect(stream.write).toBe(write);
		written.length = 0;
		stream.write("after");
		expect(written).toEqual(["after"]);
	});

	it("waits for the new layout after a resize: rows of another width or below the frame are not painted", () => {
		const { stream, written } = terminal(20, 6);
		const painter = new RowPainter(stream);
		painter.attach();
		painter.show({ ...WINDOW, columns: 30 });
		painter.show({ ...WINDOW, top: 4 });
		expect(written).toEqual([]);
		stream.write("frame");
		expect(written).toEqual(["frame"]);
		painter.show({ ...WINDOW, top: 3 });
		expect(written).toHaveLength(2);
	});

	it("under NO_COLOR, the painted rows lose their colours and keep the rest", () => {
		const { stream, written } = terminal();
		const restoreColour = filterColourOutput(stream, { NO_COLOR: "1" });
		const painter = new RowPainter(stream);
		painter.attach();
		painter.show({ ...WINDOW, rows: [`${ESC}[1;31mbold red${ESC}[39;22m`] });
		const uncoloured = paintSequence({ ...WINDOW, rows: [`${ESC}[1mbold red${ESC}[22m`] });
		expect(written).toEqual([SYNC_START + uncoloured + SYNC_END]);
		restoreColour();
	});

	it("exists only for a terminal: elsewhere Ink draws the rows", () => {
		expect(rowPainterFor(terminal().stream)).toBeInstanceOf(RowPainter);
		const piped = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
		expect(rowPainterFor(piped)).toBeUndefined();
	});
});
