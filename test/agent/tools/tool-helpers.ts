import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@mariozechner/pi-agent-core";
import { afterEach, beforeEach } from "vitest";

/** A fresh real temp directory per test (realpath'd: macOS /var is a symlink), removed afterwards. */
export function useTempDir(): { readonly dir: string } {
	const state = { dir: "" };
	beforeEach(() => {
		state.dir = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-tools-")));
	});
	afterEach(() => {
		rmSync(state.dir, { recursive: true, force: true });
	});
	return state;
}

/** The text blocks of a tool result, joined. */
export function textOf(result: AgentToolResult<unknown>): string {
	return result.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("\n");
}

/** Reads a file as UTF-8. */
export function readText(path: string): string {
	return readFileSync(path, "utf8");
}

/** A 1x1 PNG, the smallest valid image. */
export const TINY_PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
	"base64",
);
