import { describe, expect, it } from "vitest";
import type { ImportPlan, PlanItem } from "../../source/import/import-plan.js";
import { lastTime } from "../../source/import/new-session.js";

function plan(startedAt: string, times: string[]): ImportPlan {
	const items: PlanItem[] = times.map((timestamp, i) => ({
		key: `k${i}`,
		parent: null,
		timestamp,
		body: { kind: "model", model: "m" },
	}));
	return { tool: "pi", sourcePath: "/s", sourceId: "s", cwd: "/", cwdOrigin: "source", startedAt, items, badLines: [] };
}

describe("lastTime (the imported session file's time)", () => {
	it("is the latest time of any item, whatever form each time is in", () => {
		const iso = ["2025-03-01T10:00:00.000Z", "2025-03-02T09:00:00.000Z", "2025-02-01T00:00:00.000Z"];
		expect(lastTime(plan(iso[0]!, iso))).toBe(Date.parse("2025-03-02T09:00:00.000Z"));
		// A later time written with an offset, and one past year 9999.
		expect(lastTime(plan(iso[0]!, [...iso, "2025-03-02T12:00:00+02:00"]))).toBe(Date.parse("2025-03-02T10:00:00Z"));
		expect(lastTime(plan(iso[0]!, [...iso, "+010000-01-01T00:00:00.000Z"]))).toBe(
			Date.parse("+010000-01-01T00:00:00.000Z"),
		);
	});

	it("is the start when no item time parses, and 0 when nothing does", () => {
		expect(lastTime(plan("2025-01-01T00:00:00.000Z", ["garbage"]))).toBe(Date.parse("2025-01-01T00:00:00.000Z"));
		expect(lastTime(plan("garbage", []))).toBe(0);
	});
});
