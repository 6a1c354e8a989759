// One racer of the lock races (test/session-lock-race.test.ts, bench/lock-soak.ts). Line protocol on
// stdin/stdout: prints "ready"; on "go <file> <epochMs>" spins until that instant, calls
// acquireLock and prints "acquired" or "held <pid>"; on "release" releases and prints "released".
import { createInterface } from "node:readline";
import { acquireLock } from "../../source/session/session-lock.js";

let release: (() => void) | undefined;
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
	const [command, file, at] = line.split(" ");
	if (command === "go" && file && at) {
		// A spin, not a timer: every racer leaves the barrier within the same few microseconds.
		while (Date.now() < Number(at)) {}
		try {
			const result = acquireLock(file);
			if (result.kind === "acquired") {
				release = result.release;
				process.stdout.write("acquired\n");
			} else process.stdout.write(`held ${result.holder.pid}\n`);
		} catch (error) {
			process.stdout.write(`error ${(error as Error).message}\n`);
		}
	} else if (command === "release") {
		release?.();
		release = undefined;
		process.stdout.write("released\n");
	}
});
lines.on("close", () => process.exit(0));
process.stdout.write("ready\n");
