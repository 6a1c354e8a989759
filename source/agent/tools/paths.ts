import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** Resolves a path the model gave a tool: absolute kept, `~` is the home dir, relative is against `cwd`. */
export function resolveToolPath(cwd: string, input: string): string {
	if (input === "~") return homedir();
	if (input.startsWith("~/")) return resolve(homedir(), input.slice(2));
	if (isAbsolute(input)) return resolve(input);
	return resolve(cwd, input);
}

/** Short form of an absolute path for labels: relative inside `cwd`, `~/…` under home, else absolute. */
export function displayPath(cwd: string, absolute: string): string {
	const fromCwd = relative(cwd, absolute);
	if (fromCwd === "") return ".";
	if (!isOutside(fromCwd)) return fromCwd;
	const fromHome = relative(homedir(), absolute);
	if (fromHome === "") return "~";
	if (!isOutside(fromHome)) return `~${sep}${fromHome}`;
	return absolute;
}

function isOutside(relativePath: string): boolean {
	return relativePath === ".." || relativePath.startsWith(`..${sep}`) || isAbsolute(relativePath);
}
