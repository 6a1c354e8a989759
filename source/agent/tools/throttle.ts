/** A rate-limited trigger: `request()` runs the callback at most once per interval, `cancel()` drops a pending run. */
export interface Throttled {
	request(): void;
	cancel(): void;
}

/** Runs `run` at once if the last run was at least `intervalMs` ago, else once at the end of the window. */
export function throttle(run: () => void, intervalMs: number): Throttled {
	let last = Number.NEGATIVE_INFINITY;
	let timer: NodeJS.Timeout | undefined;
	const fire = () => {
		timer = undefined;
		last = Date.now();
		run();
	};
	return {
		request() {
			if (timer !== undefined) return;
			const wait = last + intervalMs - Date.now();
			if (wait <= 0) fire();
			else timer = setTimeout(fire, wait);
		},
		cancel() {
			if (timer !== undefined) clearTimeout(timer);
			timer = undefined;
		},
	};
}
