import type { AgentTool } from "@mariozechner/pi-agent-core";
import { createBashTool } from "./bash.js";
import { createEditTool } from "./edit.js";
import { createReadTool } from "./read.js";
import { createWriteTool } from "./write.js";

export { type BashDetails, type BashParams, createBashTool, DEFAULT_BASH_TIMEOUT_SECONDS } from "./bash.js";
export { createEditTool, type EditDetails, type EditParams } from "./edit.js";
export { displayPath, resolveToolPath } from "./paths.js";
export { createReadTool, MAX_IMAGE_BYTES, type ReadDetails, type ReadParams } from "./read.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./truncate.js";
export { createWriteTool, type WriteDetails, type WriteParams } from "./write.js";

/** The full tool set for a coding session in `cwd`: read, bash, edit, write. */
export function createCodingTools(cwd: string): AgentTool[] {
	return [createReadTool(cwd), createBashTool(cwd), createEditTool(cwd), createWriteTool(cwd)];
}

/** Tools that cannot change anything, for planning or review sessions in `cwd`: read. */
export function createReadOnlyTools(cwd: string): AgentTool[] {
	return [createReadTool(cwd)];
}
