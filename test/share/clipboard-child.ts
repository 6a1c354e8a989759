// Run as `node --import tsx clipboard-child.ts <text>` (under xvfb-run for the real clipboard): copies
// the text with copyToClipboard, reads the X clipboard back with xsel and prints one JSON line.
import { execFileSync } from "node:child_process";
import { copyToClipboard } from "../../source/export/clipboard.js";

const text = process.argv[2] ?? "";
let written = "";
const method = await copyToClipboard(text, {
	write: (data) => {
		written += data;
	},
});
let readBack: string | undefined;
if (method === "clipboard") readBack = execFileSync("xsel", ["--clipboard", "--output"], { encoding: "utf8" });
process.stdout.write(`${JSON.stringify({ method, written, readBack })}\n`);
