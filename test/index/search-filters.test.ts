import { describe, expect, it } from "vitest";
import {
	parseFilterFlags,
	parseRole,
	parseSearchQuery,
	parseTime,
	rangeError,
	roleError,
	timeError,
} from "../../source/index/search-filters.js";

const NOW = new Date(2026, 10, 15, 12, 0, 0).getTime();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("search filters", () => {
	it("roles: user, assistant and tool (for tool results), any case", () => {
		expect(parseRole("user")).toEqual({ ok: true, value: "user" });
		expect(parseRole("Assistant")).toEqual({ ok: true, value: "assistant" });
		expect(parseRole("tool")).toEqual({ ok: true, value: "toolResult" });
		expect(parseRole("robot")).toEqual({ ok: false, error: '--role takes user, assistant or tool (got "robot")' });
		expect(parseRole("", "role:")).toEqual({ ok: false, error: roleError("role:", "") });
	});

	it("a bare day is the local day's start for since and its end for until", () => {
		expect(parseTime("2026-11-01", "since")).toEqual({ ok: true, value: new Date(2026, 10, 1).getTime() });
		expect(parseTime("2026-11-01", "until")).toEqual({
			ok: true,
			value: new Date(2026, 10, 1, 23, 59, 59, 999).getTime(),
		});
	});

	it("an ISO time, with or without an offset (without one it is local)", () => {
		expect(parseTime("2026-11-01T14:30", "since")).toEqual({
			ok: true,
			value: new Date(2026, 10, 1, 14, 30).getTime(),
		});
		expect(parseTime("2026-11-01 14:30:05", "since")).toEqual({
			ok: true,
			value: new Date(2026, 10, 1, 14, 30, 5).getTime(),
		});
		expect(parseTime("2026-11-01T14:30:00.250Z", "until")).toEqual({
			ok: true,
			value: Date.UTC(2026, 10, 1, 14, 30, 0, 250),
		});
		expect(parseTime("2026-11-01T14:30+02:00", "until")).toEqual({ ok: true, value: Date.UTC(2026, 10, 1, 12, 30) });
	});

	it("a span is that long ago: minutes, hours, days, weeks", () => {
		expect(parseTime("30m", "since", "--since", NOW)).toEqual({ ok: true, value: NOW - 30 * 60_000 });
		expect(parseTime("12h", "since", "--since", NOW)).toEqual({ ok: true, value: NOW - 12 * HOUR });
		expect(parseTime("7d", "until", "--until", NOW)).toEqual({ ok: true, value: NOW - 7 * DAY });
		expect(parseTime("2W", "since", "--since", NOW)).toEqual({ ok: true, value: NOW - 14 * DAY });
	});

	it("anything else is an error naming the filter and the value", () => {
		for (const bad of ["yesterday", "7", "7y", "2026-02-30", "2026-13-01", "2026-11-01T25:00", "-3d", ""]) {
			expect(parseTime(bad, "since")).toEqual({ ok: false, error: timeError("--since", bad) });
		}
		expect(timeError("--until", "soon")).toBe(
			'--until takes a day (2026-11-01), an ISO time (2026-11-01T14:30) or a span ago (30m, 12h, 7d, 2w) (got "soon")',
		);
	});

	it("flags: each one, all together, the first problem, and an empty range", () => {
		expect(parseFilterFlags({}, NOW)).toEqual({ ok: true, value: {} });
		expect(parseFilterFlags({ role: "tool", since: "7d", until: "1h" }, NOW)).toEqual({
			ok: true,
			value: { role: "toolResult", since: NOW - 7 * DAY, until: NOW - HOUR },
		});
		expect(parseFilterFlags({ role: "nobody", since: "never" }, NOW)).toEqual({
			ok: false,
			error: roleError("--role", "nobody"),
		});
		expect(parseFilterFlags({ until: "later" }, NOW)).toEqual({ ok: false, error: timeError("--until", "later") });
		expect(parseFilterFlags({ since: "1d", until: "2d" }, NOW)).toEqual({
			ok: false,
			error: "--since is later than --until: nothing can match",
		});
	});

	it("query tokens come out of the words; the rest keep their order", () => {
		expect(parseSearchQuery("kafka role:user lag since:7d until:2026-11-14", NOW)).toEqual({
			words: "kafka lag",
			filters: { role: "user", since: NOW - 7 * DAY, until: new Date(2026, 10, 14, 23, 59, 59, 999).getTime() },
		});
		expect(parseSearchQuery("  plain   words ", NOW)).toEqual({ words: "plain words", filters: {} });
		expect(parseSearchQuery("ROLE:Tool x", NOW)).toEqual({ words: "x", filters: { role: "toolResult" } });
		// the last of each wins; a word that merely contains a colon stays a word
		expect(parseSearchQuery("role:user role:assistant http://x", NOW)).toEqual({
			words: "http://x",
			filters: { role: "assistant" },
		});
	});

	it("a bad token is reported with its own name, and left out of the filters", () => {
		expect(parseSearchQuery("kafka role:bot since:1d", NOW)).toEqual({
			words: "kafka",
			filters: { since: NOW - DAY },
			error: roleError("role:", "bot"),
		});
		expect(parseSearchQuery("kafka until:", NOW)).toEqual({
			words: "kafka",
			filters: {},
			error: timeError("until:", ""),
		});
		expect(parseSearchQuery("since:1h until:1d", NOW)).toEqual({
			words: "",
			filters: { since: NOW - HOUR, until: NOW - DAY },
			error: rangeError("since:", "until:"),
		});
	});
});
