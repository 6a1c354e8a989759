import { type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { createInterface, type Interface } from "node:readline";
import type { Readable, Writable } from "node:stream";

const ROOT = resolve(import.meta.dirname, "../..");

/** What the lock file looks like when the racers start. */
export type RaceCase = "no-lock" | "stale-lock" | "unreadable-lock";

/** Every case, in the order the suite and the soak run them. */
export const RACE_CASES: readonly RaceCase[] = ["no-lock", "stale-lock", "unreadable-lock"];

/** What one round gave: how many racers believe they hold the lock, and who the lock file names. */
export interface RaceRound {
	holders: number[];
	errors: string[];
	lockPid: number | undefined;
}

interface Racer {
	child: ChildProcessByStdio<Writable, Readable, null>;
	lines: Interface;
	queue: string[];
	waiters: ((line: string) => void)[];
}

function nextLine(racer: Racer): Promise<string> {
	const line = racer.queue.shift();
	if (line !== undefined) return Promise.resolve(line);
	return new Promise((resolvePromise) => racer.waiters.push(resolvePromise));
}

/** A pid that is not running on this machine (a child that already exited). */
export function deadPid(): number {
	const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
		encoding: "utf8",
	});
	return Number(child.stdout);
}

/** Puts the lock file of `sessionFile` in the state the case names. */
export function prepareCase(sessionFile: string, raceCase: RaceCase, pid: number): void {
	const lockPath = `${sessionFile}.lock`;
	switch (raceCase) {
		case "no-lock":
			return;
		case "stale-lock":
			writeFileSync(lockPath, `${JSON.stringify({ pid, host: hostname(), startedAt: new Date(0).toISOString() })}\n`);
			return;
		case "unreadable-lock": {
			// Empty, as the old create-then-write left it, and a minute old: past the grace period.
			writeFileSync(lockPath, "");
			const past = new Date(Date.now() - 60_000);
			utimesSync(lockPath, past, past);
			return;
		}
	}
}

/** N child processes that race for the same lock when told to, round after round. */
export class LockRacers {
	readonly #racers: Racer[];

	private constructor(racers: Racer[]) {
		this.#racers = racers;
	}

	/** Starts `count` racers and waits until each is ready. */
	static async start(count: number): Promise<LockRacers> {
		const racers: Racer[] = [];
		for (let i = 0; i < count; i++) {
			const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/lock-race-child.ts"], {
				cwd: ROOT,
				stdio: ["pipe", "pipe", "inherit"],
			});
			const racer: Racer = { child, lines: createInterface({ input: child.stdout }), queue: [], waiters: [] };
			racer.lines.on("line", (line) => {
				const waiter = racer.waiters.shift();
				if (waiter) waiter(line);
				else racer.queue.push(line);
			});
			racers.push(racer);
		}
		const ready = await Promise.all(racers.map(nextLine));
		if (ready.some((line) => line !== "ready")) throw new Error(`racer not ready: ${ready.join(", ")}`);
		return new LockRacers(racers);
	}

	/** The racers' pids. */
	get pids(): number[] {
		return this.#racers.map((r) => r.child.pid ?? 0);
	}

	/** Every racer calls acquireLock on `sessionFile` at the same instant; all release afterwards. */
	async race(sessionFile: string, readLockPid: () => number | undefined): Promise<RaceRound> {
		const at = Date.now() + 40;
		for (const racer of this.#racers) racer.child.stdin.write(`go ${sessionFile} ${at}\n`);
		const answers = await Promise.all(this.#racers.map(nextLine));
		const round: RaceRound = { holders: [], errors: [], lockPid: readLockPid() };
		answers.forEach((answer, i) => {
			if (answer === "acquired") round.holders.push(this.pids[i]!);
			else if (answer.startsWith("error")) round.errors.push(answer);
		});
		for (const racer of this.#racers) racer.child.stdin.write("release\n");
		await Promise.all(this.#racers.map(nextLine));
		return round;
	}

	/** Ends every racer. */
	async stop(): Promise<void> {
		await Promise.all(
			this.#racers.map(
				(racer) =>
					new Promise<void>((resolvePromise) => {
						if (racer.child.exitCode !== null) return resolvePromise();
						racer.child.once("exit", () => resolvePromise());
						racer.child.stdin.end();
					}),
			),
		);
	}
}

/** The session file of round `n` in `dir`. */
export function roundFile(dir: string, raceCase: RaceCase, n: number): string {
	return join(dir, `${raceCase}-${n}.jsonl`);
}
