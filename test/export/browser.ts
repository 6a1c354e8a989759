import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";

/** Debian's chromium; CI installs it, a machine without it skips the browser tests. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** True when the browser tests can run. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/** Headless Chromium with a fresh, ephemeral profile and no background traffic. */
export function launchChromium(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: [
			"--no-sandbox",
			"--disable-gpu",
			"--disable-background-networking",
			"--no-first-run",
			"--disable-component-update",
			"--disable-sync",
		],
	});
}

/** A page on an exported file, with everything it asked for and complained about recorded. */
export interface OpenedExport {
	readonly page: Page;
	readonly context: BrowserContext;
	readonly url: string;
	/** Every request the page made (anything but file: is aborted). */
	readonly requests: string[];
	readonly consoleErrors: string[];
	readonly dialogs: string[];
	close(): Promise<void>;
}

/** Opens `file` (plus `hash`) in a new context and waits for the conversation's first message. */
export async function openExport(browser: Browser, file: string, hash = ""): Promise<OpenedExport> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const requests: string[] = [];
	const consoleErrors: string[] = [];
	const dialogs: string[] = [];
	await context.route("**/*", async (route) => {
		const url = route.request().url();
		requests.push(url);
		if (url.startsWith("file:")) await route.continue();
		else await route.abort();
	});
	const page = await context.newPage();
	page.on("console", (message) => {
		if (message.type() === "error") consoleErrors.push(message.text());
	});
	page.on("pageerror", (error) => consoleErrors.push(error.message));
	page.on("dialog", (dialog) => {
		dialogs.push(dialog.message());
		void dialog.dismiss();
	});
	const url = pathToFileURL(file).href;
	await page.goto(url + hash);
	await page.waitForSelector("#conversation .message");
	return { page, context, url, requests, consoleErrors, dialogs, close: () => context.close() };
}

/** What `useExportBrowser` gives a suite. */
export interface ExportBrowser {
	/** Opens an exported file (plus `hash`) in a fresh context; closed after the test. */
	open(file: string, hash?: string): Promise<OpenedExport>;
	/** Closes a session the test made after the test. */
	keep(session: { close(): Promise<void> }): void;
}

/** One Chromium for the suite, and the pages and sessions each test opens, closed after it. */
export function useExportBrowser(): ExportBrowser {
	let browser: Browser | undefined;
	const pages: OpenedExport[] = [];
	const sessions: { close(): Promise<void> }[] = [];
	beforeAll(async () => {
		browser = await launchChromium();
	});
	afterAll(async () => {
		await browser?.close();
	});
	afterEach(async () => {
		for (const opened of pages.splice(0)) await opened.close();
		for (const session of sessions.splice(0)) await session.close().catch(() => undefined);
	});
	return {
		async open(file, hash = "") {
			if (!browser) throw new Error("the browser is not running: call open() inside a test");
			const opened = await openExport(browser, file, hash);
			pages.push(opened);
			return opened;
		},
		keep(session) {
			sessions.push(session);
		},
	};
}
