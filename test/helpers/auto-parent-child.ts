// An xcsh stand-in that starts a background import in its cwd and waits to be killed.
import { startAutoImport } from "../../source/import/auto-import-process.js";

startAutoImport(process.cwd());
process.stdout.write("started\n");
setInterval(() => undefined, 60_000);
