import { describe, expect, it } from "vitest";
import { isChord, matchChoiceLetter, matchConfirmKey, matchConfirmScreenKey } from "../../controllers/keymap.js";

describe("the keymap's dialog keys", () => {
	it("the confirm screen: Enter or y confirms, Escape or n declines, v toggles, ↑/↓ scroll", () => {
		expect(matchConfirmScreenKey("\r", { return: true })).toBe("confirm");
		expect(matchConfirmScreenKey("y", {})).toBe("confirm");
		expect(matchConfirmScreenKey("", { escape: true })).toBe("decline");
		expect(matchConfirmScreenKey("n", {})).toBe("decline");
		expect(matchConfirmScreenKey("v", {})).toBe("toggleDetails");
		expect(matchConfirmScreenKey("", { upArrow: true })).toBe("up");
		expect(matchConfirmScreenKey("", { downArrow: true })).toBe("down");
		expect(matchConfirmScreenKey("x", {})).toBeUndefined();
		// a chord is never an answer
		expect(matchConfirmScreenKey("y", { ctrl: true })).toBeUndefined();
		expect(matchConfirmScreenKey("v", { meta: true })).toBeUndefined();
	});

	it("a y/n prompt ignores every other key", () => {
		expect(matchConfirmKey("Y", {})).toBe("confirm");
		expect(matchConfirmKey("N", {})).toBe("decline");
		expect(matchConfirmKey("\r", { return: true })).toBeUndefined();
	});

	it("a choice letter is a plain key in either case", () => {
		expect(matchChoiceLetter("R", {}, ["f", "r", "c"])).toBe("r");
		expect(matchChoiceLetter("f", { ctrl: true }, ["f", "r", "c"])).toBeUndefined();
		expect(matchChoiceLetter("x", {}, ["f", "r", "c"])).toBeUndefined();
		expect(isChord({ meta: true })).toBe(true);
		expect(isChord({ shift: true })).toBe(false);
	});
});
