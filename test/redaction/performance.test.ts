import { describe, expect, it } from "vitest";
import { redactEntries } from "../../source/redaction/redact.js";
import { SessionManager } from "../../source/session/session-manager.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/messages.js";
import { lookalikes, planted } from "./corpus.js";

const PROSE =
	"The session layer appends every entry to a JSONL file, then fsyncs; a torn tail is repaired on load. " +
	"Tokens are counted per turn and the password prompt never echoes. See https://example.com/docs?page=2 for more. ";
const CODE = [
	"export function load(path: string, options: LoadOptions = {}): Session {",
	"\tconst token = options.token ?? process.env.XCSH_TOKEN;",
	"\tconst apiKey: string | undefined = options.apiKey;",
	'\tif (!token) throw new Error("no token for " + path);',
	"\treturn { path, entries: parse(readFileSync(path, 'utf8')), hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4' };",
	"}",
].join("\n");

function chunk(i: number, size: number): string {
	const look = lookalikes[i % lookalikes.length]!.text;
	let text = `${look}\n`;
	while (text.length < size) text += (i + text.length) % 2 === 0 ? `${PROSE}\n` : `${CODE}\n`;
	return text.slice(0, size);
}

describe("performance", () => {
	// Its speed is measured by `npm run bench:redaction`; here only that a big session comes out whole and clean.
	it("redacts a 10k-entry, ~30 MB session: every planted secret, nothing else", () => {
		const session = SessionManager.inMemory("/p");
		const secrets: string[] = [];
		for (let i = 0; i < 10_000; i++) {
			let text = chunk(i, 3000);
			if (i % 50 === 0) {
				const p = planted[(i / 50) % planted.length]!;
				if (!p.env) {
					text = `${text}\n${p.text}\n`;
					secrets.push(p.secret);
				}
			}
			if (i % 3 === 0) session.appendMessage(userMessage(text));
			else if (i % 3 === 1) session.appendMessage(assistantMessage(text));
			else session.appendMessage(toolResultMessage(text));
		}
		const entries = session.getEntries();
		const bytes = entries.reduce((n, e) => n + JSON.stringify(e).length, 0);
		expect(bytes).toBeGreaterThan(29_000_000);

		const { entries: out, summary } = redactEntries(entries, { env: false });

		const json = JSON.stringify(out);
		for (const secret of secrets) expect(json.includes(secret)).toBe(false);
		// One finding per planted secret: the look-alikes and code around them stay untouched.
		expect(summary.total).toBe(secrets.length);
	});
});
