import { describe, expect, it } from "vitest";
import { redactText } from "../../source/redaction/redact.js";

const redact = (text: string): string => redactText(text, { env: false }).text;

describe("KEY=value (issue 12)", () => {
	it.each([
		["a passphrase of words joined by -", "DB_PASSWORD=correct-horse-battery-staple"],
		["a value led by /", "DB_PASSWORD=/aB3dE6gH9j+Xy2z"],
		["a value led by +", "API_TOKEN=+Qw3Er5Ty7Ui9"],
		["a value led by ~", "SECRET_KEY=~aB3dE6gH/wxyz"],
		["a value with + and /", "export CLIENT_SECRET=Zx8/Kq+Lm2~pR7"],
		["a short passphrase", "PASSWORD=velvet-cactus"],
	])("redacts %s", (_, text) => {
		const key = text.slice(0, text.indexOf("=") + 1);
		expect(redact(text)).toBe(`${key}[REDACTED:secret-assignment]`);
	});

	it("redacts a key glued to what precedes it", () => {
		expect(redact("[[ -f .env ]]DB_PASSWORD=s3cr3t-v4lue")).toBe(
			"[[ -f .env ]]DB_PASSWORD=[REDACTED:secret-assignment]",
		);
		expect(redact("fi;]]DB_PASSWORD=correct-horse-battery")).toBe("fi;]]DB_PASSWORD=[REDACTED:secret-assignment]");
	});

	it("keeps names and paths under keys that are not passwords", () => {
		for (const text of [
			"SECRET_NAME=app-db-credentials",
			"TOKEN_FILE=/run/secrets/api_token",
			"apiKeyEnv: OPENAI_API_KEY",
			"secretRef: my-app-secret",
		]) {
			expect(redact(text), text).toBe(text);
		}
	});
});

describe("documentation placeholders (issue 12)", () => {
	it.each([
		"aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
		"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"DATABASE_URL=postgres://user:password@localhost:5432/app",
		"mongodb://user:pass@localhost:27017/db",
		"redis://:secret@localhost:6379",
		'OPENAI_API_KEY="sk-..."',
		"OPENAI_API_KEY=sk-...abcd",
		"ANTHROPIC_API_KEY=sk-ant-…",
		"PASSWORD=password",
	])("leaves %s alone", (text) => {
		expect(redact(text)).toBe(text);
	});

	it("still redacts a real-looking password on localhost and a key that merely contains EXAMPLE-free text", () => {
		expect(redact("postgres://app:Qz8vLk2mN4@localhost:5432/app")).toBe(
			"postgres://app:[REDACTED:url-password]@localhost:5432/app",
		);
		expect(redact("aws_access_key_id = AKIAQZ7N4K2M5P3R6T8V")).toBe("aws_access_key_id = [REDACTED:aws-access-key-id]");
	});
});
