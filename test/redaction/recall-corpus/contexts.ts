import type { Needs } from "./providers.js";

/** What a context gives the secret: nothing, a human label on the same line, or a key it is assigned to. */
export type Frame = "bare" | "labelled" | "assignment";

/** Where a secret shows up in a session: a paste, a file read by a tool, a command, a log. */
export interface Context {
	readonly id: string;
	readonly frame: Frame;
	/** The text holding `value` (the secret, or the URL / block carrying it). */
	readonly render: (value: string, label: string, envKey: string) => string;
}

const camel = (envKey: string): string =>
	envKey.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Sixteen-plus places a pasted or printed secret lands in. */
export const CONTEXTS: readonly Context[] = [
	{ id: "prose", frame: "labelled", render: (v, l) => `The ${l} for staging is ${v} — rotate it monthly.` },
	{ id: "json", frame: "labelled", render: (v, l) => `{"name": "${l}", "value": "${v}", "enabled": true}` },
	{
		id: "json-escaped",
		frame: "labelled",
		render: (v, l) => `{"output":"{\\"service\\":\\"${l}\\",\\"value\\":\\"${v}\\"}\\n"}`,
	},
	{
		id: "log-line",
		frame: "labelled",
		render: (v, l) => `2024-05-01T12:00:00.123Z INFO worker-3 loaded ${l} ${v} from the vault`,
	},
	{ id: "xml", frame: "labelled", render: (v, l) => `<setting name="${l}">${v}</setting>` },
	{ id: "env-file", frame: "assignment", render: (v, _, k) => `NODE_ENV=production\n${k}=${v}\nPORT=8080` },
	{ id: "shell-export", frame: "assignment", render: (v, _, k) => `export ${k}="${v}"` },
	{ id: "docker-run", frame: "assignment", render: (v, _, k) => `docker run --rm -e ${k}=${v} acme/worker:1.4` },
	{ id: "glued-key", frame: "assignment", render: (v, _, k) => `[[ -f .env ]]${k}=${v}` },
	{
		id: "yaml",
		frame: "assignment",
		render: (v, _, k) => `services:\n  api:\n    environment:\n      ${k.toLowerCase()}: ${v}\n      region: eu`,
	},
	{
		id: "python-kwarg",
		frame: "assignment",
		render: (v, _, k) => `client = Client(${k.toLowerCase()}='${v}', timeout=30)`,
	},
	{
		id: "ts-property",
		frame: "assignment",
		render: (v, _, k) => `const config = { ${camel(k)}: "${v}", retries: 3 };`,
	},
	{
		id: "curl-header",
		frame: "assignment",
		render: (v) => `curl -s -H "Authorization: Bearer ${v}" https://api.example.com/v1/me`,
	},
	{ id: "url-query", frame: "bare", render: (v) => `GET https://api.example.com/v1/items?page=2&key=${v}&limit=10` },
	{ id: "code-literal", frame: "bare", render: (v) => `const client = new Client("${v}", { retries: 3 });` },
	{ id: "markdown-code", frame: "bare", render: (v) => `Run this:\n\n\`\`\`\n${v}\n\`\`\`\n` },
	{ id: "glued-punctuation", frame: "bare", render: (v) => `loaded [${v}];(${v})` },
	{ id: "html-attribute", frame: "bare", render: (v) => `<div data-config='${v}' hidden></div>` },
];

/** True when a context gives enough for a secret that `needs` this to be recognisable. */
export function fits(context: Context, needs: Needs): boolean {
	switch (needs) {
		case "nothing":
			return true;
		case "label":
			return context.frame !== "bare";
		case "assignment":
			return context.frame === "assignment";
	}
}
