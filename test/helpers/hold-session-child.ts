// Opens a session for writing in a separate process and holds it until stdin closes or a signal
// arrives: the "other xcsh" of the single-writer tests.
import { SessionManager } from "../../source/session/session-manager.js";

const [file, entries = "1"] = process.argv.slice(2);
if (!file) throw new Error("usage: hold-session-child <session.jsonl> [entries]");
const session = await SessionManager.open(file);
for (let i = 0; i < Number(entries); i++) session.appendCustomEntry("held-by", { pid: process.pid, i });
await session.flush();
process.stdout.write(`holding ${process.pid}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
	void session.close().then(() => process.exit(0));
});
