/** Where reading a session changes strategy with its size (each settable by environment, for tests). */

/**
 * Sessions bigger than this keep only their skeleton and the active context in memory. Measured:
 * under it, parsing every body costs less than a second and the memory of a few small sessions.
 */
export const DEFAULT_LAZY_ABOVE_BYTES = 64 * 1024 * 1024;

/**
 * Files at least this big are first read on threads of their own. Below it, starting a thread costs
 * more than it saves (and every open over the lazy threshold, 64 MiB by default, is above it).
 */
export const DEFAULT_APART_ABOVE_BYTES = 32 * 1024 * 1024;

/**
 * Files under this are read in two parts at once where there are two cores: the read ends well
 * before one thread's would, and the two threads' memory stays small (a 1 GB session's first open
 * peaked at 154–165 MiB, the UI loading beside them). Bigger ones use one thread, whose memory is
 * bounded whatever the size (two threads took 238–258 MiB at 5 GB, against a bound of 250). The CLI
 * loads its UI during the read only below it: above it, the memory is kept for the read.
 */
export const TWO_PARTS_BELOW_BYTES = 1.5 * 1024 ** 3;

/** A byte count from the environment variable `name`, or `fallback` when unset or not a count. */
function bytesFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	const value = Number(raw);
	return raw !== undefined && raw !== "" && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** The size above which a session is opened with its bodies on disk: the option, `XCSH_LAZY_ABOVE_BYTES`, or 64 MiB. */
export function lazyThreshold(option: number | undefined): number {
	return option ?? bytesFromEnv("XCSH_LAZY_ABOVE_BYTES", DEFAULT_LAZY_ABOVE_BYTES);
}

/** The size from which a first open reads on its own threads: `XCSH_READ_APART_ABOVE_BYTES` or 32 MiB. */
export function apartThreshold(): number {
	return bytesFromEnv("XCSH_READ_APART_ABOVE_BYTES", DEFAULT_APART_ABOVE_BYTES);
}
