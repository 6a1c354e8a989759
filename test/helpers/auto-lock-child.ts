// Takes the auto-import lock as a background import does, says "holding", and waits to be killed.
import { acquireAutoImportLock } from "../../source/import/auto-import-lock.js";

const lock = acquireAutoImportLock();
process.stdout.write(lock.kind === "acquired" ? "holding\n" : `held by ${lock.holder.pid}\n`);
setInterval(() => undefined, 60_000);
