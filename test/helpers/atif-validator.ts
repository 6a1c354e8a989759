/**
 * A checker for ATIF trajectories against the field list the Harbor RFC (0001-trajectory-format,
 * v1.4) publishes: required fields and their types at every level, the known fields only (anything
 * else belongs in `extra`), and the rules its reference validator applies — step ids 1, 2, 3, …,
 * `source` one of system/user/agent, agent-only fields only on agent steps, ISO 8601 timestamps,
 * and every observation's `source_call_id` naming a tool call of its own step.
 */

type Json = Record<string, unknown>;

type Kind = "string" | "integer" | "number" | "object" | "array" | "string|number" | "boolean";

interface Field {
	kind: Kind;
	required?: boolean;
}

const ROOT: Record<string, Field> = {
	schema_version: { kind: "string", required: true },
	session_id: { kind: "string", required: true },
	agent: { kind: "object", required: true },
	steps: { kind: "array", required: true },
	notes: { kind: "string" },
	final_metrics: { kind: "object" },
	extra: { kind: "object" },
};

const AGENT: Record<string, Field> = {
	name: { kind: "string", required: true },
	version: { kind: "string", required: true },
	model_name: { kind: "string" },
	extra: { kind: "object" },
};

const FINAL_METRICS: Record<string, Field> = {
	total_prompt_tokens: { kind: "integer" },
	total_completion_tokens: { kind: "integer" },
	total_cached_tokens: { kind: "integer" },
	total_cost_usd: { kind: "number" },
	total_steps: { kind: "integer" },
	extra: { kind: "object" },
};

const STEP: Record<string, Field> = {
	step_id: { kind: "integer", required: true },
	timestamp: { kind: "string" },
	source: { kind: "string", required: true },
	model_name: { kind: "string" },
	reasoning_effort: { kind: "string|number" },
	message: { kind: "string", required: true },
	reasoning_content: { kind: "string" },
	tool_calls: { kind: "array" },
	observation: { kind: "object" },
	metrics: { kind: "object" },
	extra: { kind: "object" },
};

const TOOL_CALL: Record<string, Field> = {
	tool_call_id: { kind: "string", required: true },
	function_name: { kind: "string", required: true },
	arguments: { kind: "object", required: true },
};

const OBSERVATION: Record<string, Field> = { results: { kind: "array", required: true } };

const OBSERVATION_RESULT: Record<string, Field> = {
	source_call_id: { kind: "string" },
	content: { kind: "string" },
	subagent_trajectory_ref: { kind: "array" },
};

const METRICS: Record<string, Field> = {
	prompt_tokens: { kind: "integer" },
	completion_tokens: { kind: "integer" },
	cached_tokens: { kind: "integer" },
	cost_usd: { kind: "number" },
	prompt_token_ids: { kind: "array" },
	completion_token_ids: { kind: "array" },
	logprobs: { kind: "array" },
	extra: { kind: "object" },
};

const AGENT_ONLY = ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"];
const VERSIONS = new Set(["ATIF-v1.0", "ATIF-v1.1", "ATIF-v1.2", "ATIF-v1.3", "ATIF-v1.4"]);
// What Python's datetime.fromisoformat (Harbor's check) reads, after it swaps Z for +00:00.
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

function isObject(value: unknown): value is Json {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasKind(value: unknown, kind: Kind): boolean {
	switch (kind) {
		case "string":
			return typeof value === "string";
		case "integer":
			return Number.isInteger(value);
		case "number":
			return typeof value === "number" && Number.isFinite(value);
		case "boolean":
			return typeof value === "boolean";
		case "object":
			return isObject(value);
		case "array":
			return Array.isArray(value);
		case "string|number":
			return typeof value === "string" || typeof value === "number";
	}
}

function checkFields(value: unknown, fields: Record<string, Field>, at: string, errors: string[]): value is Json {
	if (!isObject(value)) {
		errors.push(`${at}: must be an object`);
		return false;
	}
	for (const [name, field] of Object.entries(fields)) {
		const present = value[name] !== undefined && value[name] !== null;
		if (!present) {
			if (field.required) errors.push(`${at}.${name}: required`);
			continue;
		}
		if (!hasKind(value[name], field.kind)) errors.push(`${at}.${name}: must be ${field.kind}`);
	}
	for (const name of Object.keys(value)) if (!(name in fields)) errors.push(`${at}.${name}: not an ATIF field`);
	return true;
}

function checkStep(step: unknown, index: number, errors: string[]): void {
	const at = `steps[${index}]`;
	if (!checkFields(step, STEP, at, errors)) return;
	if (step.step_id !== index + 1) errors.push(`${at}.step_id: expected ordinal ${index + 1}, got ${step.step_id}`);
	if (!["system", "user", "agent"].includes(step.source as string))
		errors.push(`${at}.source: must be one of system, user, agent`);
	if (step.source !== "agent")
		for (const name of AGENT_ONLY)
			if (step[name] !== undefined) errors.push(`${at}.${name}: only applicable when source is 'agent'`);
	if (typeof step.timestamp === "string" && !ISO.test(step.timestamp))
		errors.push(`${at}.timestamp: invalid ISO 8601 (${step.timestamp})`);
	const callIds = new Set<string>();
	if (Array.isArray(step.tool_calls))
		for (const [i, call] of step.tool_calls.entries())
			if (checkFields(call, TOOL_CALL, `${at}.tool_calls[${i}]`, errors) && typeof call.tool_call_id === "string")
				callIds.add(call.tool_call_id);
	if (step.observation !== undefined && checkFields(step.observation, OBSERVATION, `${at}.observation`, errors)) {
		const results = Array.isArray(step.observation.results) ? step.observation.results : [];
		for (const [i, result] of results.entries()) {
			const where = `${at}.observation.results[${i}]`;
			if (!checkFields(result, OBSERVATION_RESULT, where, errors)) continue;
			if (typeof result.source_call_id === "string" && !callIds.has(result.source_call_id))
				errors.push(`${where}.source_call_id: ${result.source_call_id} is not a tool call of this step`);
		}
	}
	if (step.metrics !== undefined) checkFields(step.metrics, METRICS, `${at}.metrics`, errors);
}

/** The problems of one trajectory against the published field list (empty when it conforms). */
export function atifErrors(trajectory: unknown): string[] {
	const errors: string[] = [];
	if (!checkFields(trajectory, ROOT, "trajectory", errors)) return errors;
	if (typeof trajectory.schema_version === "string" && !VERSIONS.has(trajectory.schema_version))
		errors.push(`trajectory.schema_version: unknown version ${trajectory.schema_version}`);
	checkFields(trajectory.agent, AGENT, "agent", errors);
	if (trajectory.final_metrics !== undefined)
		checkFields(trajectory.final_metrics, FINAL_METRICS, "final_metrics", errors);
	const steps = Array.isArray(trajectory.steps) ? trajectory.steps : [];
	if (steps.length === 0) errors.push("trajectory.steps: required (at least one step)");
	for (const [i, step] of steps.entries()) checkStep(step, i, errors);
	return errors;
}
