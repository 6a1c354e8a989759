// Opens a big session through the public API, appends, reopens and forks it; prints what it saw.
import { SessionManager } from "../../dist/session.js";

const [file] = process.argv.slice(2);
const session = await SessionManager.open(file, { breadcrumb: false });
const context = session.buildSessionContext();
const last = context.messages.at(-1);
const lastText = last?.content?.find?.((block) => block.type === "text")?.text;
const entriesOnDisk = session.getLoadReport().entriesOnDisk ?? 0;
const appended = session.appendMessage({
	role: "user",
	content: [{ type: "text", text: "appended" }],
	timestamp: Date.now(),
});
await session.close();
const again = await SessionManager.open(file, { breadcrumb: false });
const reloaded = again.getEntry(appended)?.message?.content?.[0]?.text;
const entries = again.getSkeleton().length;
const fork = await again.fork();
const forkedEntries = again.getSkeleton().length;
const forkedLast = again.getEntry(appended)?.message?.content?.[0]?.text;
await again.close();
process.stdout.write(
	`${JSON.stringify({ lastText, entriesOnDisk, reloaded, entries, fork, forkedEntries, forkedLast })}\n`,
);
