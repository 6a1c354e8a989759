// Run as `node --import tsx clipboard-child.ts <text> [<result.json>]`: copies the text with
// copyToClipboard and reports one JSON line. Without a result file the escape sequences are captured
// and the X clipboard is read back with xsel (under xvfb-run); with one, they go to the real terminal
// (a tmux pane) and the JSON goes to that file.
import { execFileSync } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
import { copyToClipboard } from "../../../source/export/clipboard.js";

const text = process.argv[2] ?? "";
const resultFile = process.argv[3];
let written = "";
const method = await copyToClipboard(text, {
	write: (data) => {
		written += data;
		if (resultFile) process.stdout.write(data);
	},
});
let readBack: string | undefined;
if (method === "clipboard") readBack = execFileSync("xsel", ["--clipboard", "--output"], { encoding: "utf8" });
const line = `${JSON.stringify({ method, written, readBack })}\n`;
if (resultFile) {
	// Renamed into place: the test reads the file as soon as it exists, never half written.
	writeFileSync(`${resultFile}.tmp`, line);
	renameSync(`${resultFile}.tmp`, resultFile);
} else process.stdout.write(line);
