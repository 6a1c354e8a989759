import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { browserCommand, openInBrowser } from "../../../source/export/open-browser.js";
import { useTempAgentDir } from "../../helpers/temp-agent-dir.js";
import { writeExecutable } from "./helpers.js";

describe("openInBrowser", () => {
	const temp = useTempAgentDir();

	/** A $BROWSER stand-in that records one argv element per line, then exits with `code`. */
	function recorder(code = 0) {
		const record = join(temp.root, "browser-argv.txt");
		const script = writeExecutable(
			join(temp.root, "fake browser.sh"),
			`#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${record}"\nexit ${code}\n`,
		);
		return { script, read: () => readFileSync(record, "utf8").split("\n").slice(0, -1) };
	}

	it("runs $BROWSER with the target appended and reports success", async () => {
		const fake = recorder();
		const env = { ...process.env, BROWSER: `'${fake.script}' --new-window` };
		expect(await openInBrowser("/tmp/my session.html", env)).toBe(true);
		expect(fake.read()).toEqual(["--new-window", "/tmp/my session.html"]);
	});

	it("substitutes %s in $BROWSER instead of appending", async () => {
		const fake = recorder();
		const env = { ...process.env, BROWSER: `'${fake.script}' --url=%s --x` };
		expect(await openInBrowser("https://example.test/?a", env)).toBe(true);
		expect(fake.read()).toEqual(["--url=https://example.test/?a", "--x"]);
	});

	it("reports false when the opener is missing or exits non-zero", async () => {
		expect(await openInBrowser("x.html", { ...process.env, BROWSER: join(temp.root, "no-such-browser") })).toBe(false);
		const failing = recorder(3);
		expect(await openInBrowser("x.html", { ...process.env, BROWSER: `'${failing.script}'` })).toBe(false);
		expect(failing.read()).toEqual(["x.html"]);
		expect(await openInBrowser("x.html", { ...process.env, BROWSER: "'unterminated" })).toBe(false);
	});

	it("uses the platform opener without $BROWSER", () => {
		expect(browserCommand("a b.html", {}, "linux")).toEqual(["xdg-open", "a b.html"]);
		expect(browserCommand("a b.html", {}, "darwin")).toEqual(["open", "a b.html"]);
		expect(browserCommand("a b.html", {}, "win32")).toEqual(["cmd", "/c", "start", '""', "a b.html"]);
		expect(browserCommand("a b.html", { BROWSER: "  " }, "linux")).toEqual(["xdg-open", "a b.html"]);
	});
});
