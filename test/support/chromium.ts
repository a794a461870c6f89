/**
 * Headless Chromium for page checks: Debian's /usr/bin/chromium driven by playwright-core (which
 * downloads no browser of its own). Flags: no network beyond the page's own host, a fresh profile.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { recordSkip } from './skips.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why pages cannot be checked here, or undefined. CI installs Chromium, so there it is never missing. */
export function chromiumProblem(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Screenshots land here so a reader of the test output can look at the page. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots');

/**
 * Open `url` in a fresh page, collect console errors and failed requests, run `check`, and save
 * a screenshot named `name`. Requests leaving 127.0.0.1/localhost are aborted and reported, so a
 * page that needs the internet fails.
 */
export async function withPage<T>(
  url: string,
  name: string,
  check: (page: Page, problems: string[]) => Promise<T>,
): Promise<T> {
  return withPages(async (open, problems) => {
    const page = await open(url);
    const result = await check(page, problems);
    await screenshot(page, name);
    return result;
  });
}

/**
 * Several pages in one browser profile (they share localStorage, as a user's tabs do): `open(url)`
 * loads one more page, guarded as `withPage` guards its page.
 */
export async function withPages<T>(check: (open: (url: string) => Promise<Page>, problems: string[]) => Promise<T>): Promise<T> {
  const browser = await launchChromium();
  const problems: string[] = [];
  try {
    const context = await browser.newContext();
    const open = async (url: string) => {
      const page = await context.newPage();
      await page.route('**/*', (route) => {
        const host = new URL(route.request().url()).hostname;
        if (host === '127.0.0.1' || host === 'localhost' || route.request().url().startsWith('data:')) return route.continue();
        problems.push(`external request: ${route.request().url()}`);
        return route.abort();
      });
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
      await page.goto(url, { waitUntil: 'networkidle', timeout: 20_000 });
      return page;
    };
    return await check(open, problems);
  } finally {
    await browser.close();
  }
}

/** Save a screenshot of `page` under SCREENSHOT_DIR, for a reader of the test output. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Page suites call this at load: with ERGRAPH_REQUIRE_CHROMIUM (CI) a missing browser fails the run. */
export function requireChromium(): boolean {
  const problem = chromiumProblem();
  if (problem && process.env.ERGRAPH_REQUIRE_CHROMIUM) throw new Error(problem);
  if (problem) recordSkip('page checks in headless Chromium', problem, 'ERGRAPH_REQUIRE_CHROMIUM');
  return !problem;
}
