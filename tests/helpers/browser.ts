/**
 * Debian Chromium driven through playwright-core for the e2e specs, and a small DSL over a page:
 * `ui.clickTestId`, `ui.fill`, `ui.screenshot(name)`, waits on paths and texts, and a console
 * watch that fails the test on console errors nobody announced (`ui.allowConsoleError`), and an
 * accessibility check (axe-core, accessibility.ts) on every screenshot.
 * Browser downloads are impossible here, so the system's /usr/bin/chromium is used.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { root } from '../../scripts/build.ts';
import { accessibilityFindings, describeFindings } from './accessibility.ts';
import { E2E_TIMEOUT_MS } from './e2e-wait.ts';
import { CACHE_TTL_MS, StorageKey } from '../../web/lib/storage.ts';
import { languages, type Language } from '../../server/contract/languages.ts';
import type { Settings, ThemeMode } from '../../web/stores/settings.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];


export interface BrowserSession {
  context: BrowserContext;
  /** A new tab on `baseUrl`, with its own console watch; screenshots go to test-results/screenshots/<spec>/. */
  newUi(baseUrl: string, spec: string): Promise<Ui>;
  close(): Promise<void>;
}

/** Chromium on a new, empty profile (deleted on close). */
export async function launchBrowser(): Promise<BrowserSession> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'edge-e2e-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
  });
  // Every locator wait, click and waitForFunction of a step gives up after the shared e2e timeout.
  context.setDefaultTimeout(E2E_TIMEOUT_MS);
  return {
    context,
    async newUi(baseUrl, spec) {
      // Each spec run starts with an empty folder, so its pictures are this run's only.
      rmSync(join(root, 'test-results', 'screenshots', spec), { recursive: true, force: true });
      return new Ui(await context.newPage(), baseUrl, spec);
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Something the page wrote to its console as an error, or an uncaught exception. */
export interface ConsoleProblem {
  text: string;
  /** The script or resource it came from, when the browser says. */
  url: string;
}

export interface FileInput {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const themes: readonly ThemeMode[] = ['light', 'dark'];

export class Ui {
  private readonly problems: ConsoleProblem[] = [];
  private readonly allowed: RegExp[] = [];
  private readonly shotDir: string;
  private shots = 0;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
    spec: string,
  ) {
    this.shotDir = join(root, 'test-results', 'screenshots', spec);
    mkdirSync(this.shotDir, { recursive: true });
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.problems.push({ text: msg.text(), url: msg.location().url });
    });
    page.on('pageerror', (err) => this.problems.push({ text: `uncaught: ${err.stack ?? err.message}`, url: '' }));
  }

  // --- finding and driving -------------------------------------------------------------------

  testId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(new URL(path, this.baseUrl).href);
  }

  async reload(): Promise<void> {
    await this.page.reload();
  }

  async clickTestId(id: string): Promise<void> {
    await this.testId(id).click();
  }

  /** Replaces the input's text (the element with that test id, or the input inside it). */
  async fill(id: string, value: string): Promise<void> {
    await this.inputOf(id).fill(value);
  }

  /** Moves focus away from the input, for rules checked on blur. */
  async blur(id: string): Promise<void> {
    await this.inputOf(id).blur();
  }

  /** Chooses a file in the `<input type="file">` with that test id. */
  async chooseFile(id: string, file: FileInput): Promise<void> {
    await this.testId(id).setInputFiles(file);
  }

  private inputOf(id: string): Locator {
    // Arco puts data-testid on the <input> itself for Input, on a wrapper for Input.Password.
    return this.page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();
  }

  // --- what the user sees --------------------------------------------------------------------

  async expectVisible(id: string): Promise<Locator> {
    const el = this.testId(id);
    await el.waitFor({ state: 'visible' });
    return el;
  }

  async expectHidden(id: string): Promise<void> {
    await this.testId(id).waitFor({ state: 'hidden' });
  }

  /**
   * Closes the drawer with that test id with its close icon, as a user does. Popup notifications in
   * the top right corner lie over that icon, so they are dismissed first, as a user would. (Escape
   * was tried: it reaches an Arco drawer only while focus is inside it, and focusing its wrapper
   * does not put it there.)
   */
  async closeDrawer(id: string): Promise<void> {
    await this.page.evaluate(() => document.querySelectorAll<HTMLElement>('.arco-notification-close-btn').forEach((b) => b.click()));
    await this.testId(id).locator('.arco-drawer-close-icon').first().click();
    await this.expectHidden(id);
  }

  /** Waits until the element with that test id is visible and its text contains `text`. */
  async expectText(id: string, text: string): Promise<void> {
    await this.expectLocatorText(this.testId(id), text);
  }

  async expectLocatorText(locator: Locator, text: string): Promise<void> {
    await locator.filter({ hasText: text }).first().waitFor({ state: 'visible' });
  }

  /** Waits until the image has loaded and returns its natural width (0 never counts as loaded). */
  async expectImageLoaded(locator: Locator): Promise<number> {
    await locator.waitFor({ state: 'visible' });
    const handle = await locator.elementHandle();
    await this.page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0, handle);
    return locator.evaluate((img: HTMLImageElement) => img.naturalWidth);
  }

  /** Waits for a text anywhere on the page (toast messages, inline form errors). */
  async expectPageText(text: string): Promise<void> {
    await this.page.getByText(text, { exact: false }).first().waitFor({ state: 'visible' });
  }

  /** The inline error Arco shows under the form item that holds the given input. */
  formItemError(id: string): Locator {
    return this.page.locator('.arco-form-item', { has: this.page.locator(`[data-testid="${id}"]`) }).locator('.arco-form-message');
  }

  async expectFieldError(id: string, text: string): Promise<void> {
    await this.expectLocatorText(this.formItemError(id), text);
  }

  async expectNoFieldError(id: string): Promise<void> {
    await this.formItemError(id).filter({ hasText: /\S/ }).first().waitFor({ state: 'hidden' });
  }

  /** Waits until the location's path (without query) is `path`. */
  async expectPath(path: string): Promise<void> {
    await this.page.waitForURL((url) => url.pathname === path);
  }

  path(): string {
    return new URL(this.page.url()).pathname;
  }

  search(): URLSearchParams {
    return new URL(this.page.url()).searchParams;
  }

  // --- settings and storage ------------------------------------------------------------------

  /** The value stored under one of the console's storage keys (either storage area), or null. */
  async stored<T>(key: StorageKey): Promise<T | null> {
    return this.page.evaluate((k) => {
      const raw = sessionStorage.getItem(k) ?? localStorage.getItem(k);
      return raw === null ? null : (JSON.parse(raw) as { value: T }).value;
    }, key);
  }

  /** Writes a value the way web/lib/storage.ts does (an envelope with an expiry). */
  async store(key: StorageKey, value: unknown, area: 'local' | 'session' = 'local'): Promise<void> {
    await this.page.evaluate(
      ([k, v, a, ttl]) => {
        const target = a === 'local' ? localStorage : sessionStorage;
        (a === 'local' ? sessionStorage : localStorage).removeItem(k);
        target.setItem(k, JSON.stringify({ value: v, expires: Date.now() + ttl }));
      },
      [key, value, area, CACHE_TTL_MS] as const,
    );
  }

  async settings(): Promise<Partial<Settings>> {
    return (await this.stored<Partial<Settings>>(StorageKey.PROJECT_SETTINGS)) ?? {};
  }

  /** Changes stored settings as the drawer would persist them; they apply on the next load. */
  async storeSettings(patch: Partial<Settings>): Promise<void> {
    const next = { ...(await this.settings()), ...patch };
    await this.page.evaluate(
      ([k, v]) => localStorage.setItem(k, JSON.stringify({ value: v, expires: null })),
      [StorageKey.PROJECT_SETTINGS, next] as const,
    );
  }

  /** The language and theme the page shows now. */
  async look(): Promise<{ language: Language; theme: ThemeMode }> {
    return this.page.evaluate(() => ({
      language: document.documentElement.lang === 'en' ? 'en_US' : 'zh_CN',
      theme: document.body.getAttribute('arco-theme') === 'dark' ? 'dark' : 'light',
    }));
  }

  // --- screenshots ---------------------------------------------------------------------------

  /** Saves test-results/screenshots/<spec>/<nn>-<name>.png (numbered in the order taken). */
  async screenshot(name: string): Promise<string> {
    this.shots += 1;
    const file = join(this.shotDir, `${String(this.shots).padStart(2, '0')}-${name}.png`);
    await this.settle();
    await this.page.screenshot({ path: file });
    const findings = await accessibilityFindings(this.page);
    if (findings.length) throw new Error(`accessibility violations on ${name} (${this.page.url()}):\n${describeFindings(findings)}`);
    return file;
  }

  /** Waits until no finite CSS animation or transition runs (modals, drawers, messages entering). */
  async settle(): Promise<void> {
    await this.page.waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: E2E_TIMEOUT_MS },
    );
  }

  /**
   * One screenshot per language and theme of the screen on show (`<name>-<lang>-<theme>`): each
   * combination is stored as settings and the page reloaded, `reopen` brings back what a reload
   * closes (a modal, a drawer) and waits for it. The combination on show comes last, so the page
   * ends as it started.
   */
  async screenshotMatrix(name: string, reopen: () => Promise<unknown>): Promise<void> {
    const start = await this.look();
    const combos = languages
      .flatMap((language) => themes.map((theme) => ({ language, theme })))
      .filter((c) => c.language !== start.language || c.theme !== start.theme);
    for (const c of [...combos, start]) {
      await this.storeSettings({ language: c.language, themeMode: c.theme });
      await this.reload();
      await this.page.waitForFunction(
        ([lang, dark]) =>
          document.documentElement.lang === lang && (document.body.getAttribute('arco-theme') === 'dark') === dark,
        [c.language === 'en_US' ? 'en' : 'zh-CN', c.theme === 'dark'] as const,
      );
      await reopen();
      await this.screenshot(`${name}-${c.language}-${c.theme}`);
    }
  }

  // --- console -------------------------------------------------------------------------------

  /** Console errors matching `pattern` (text or source URL) are expected from here on. */
  allowConsoleError(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  unexpectedConsoleErrors(): ConsoleProblem[] {
    return this.problems.filter((p) => !this.allowed.some((re) => re.test(p.text) || re.test(p.url)));
  }

  /** Throws when the page logged an error nobody announced. */
  assertNoConsoleErrors(): void {
    const unexpected = this.unexpectedConsoleErrors();
    if (unexpected.length > 0) {
      throw new Error(`unexpected console errors:\n${unexpected.map((p) => `  ${p.text} ${p.url}`).join('\n')}`);
    }
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

/**
 * A real, decodable PNG of one colour (the avatar fixture), made here rather than stored so the
 * repository holds no binary fixtures.
 */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
