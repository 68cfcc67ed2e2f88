/**
 * The page in a real browser: Debian's Chromium (`/usr/bin/chromium`, driven by playwright-core;
 * no browser download) loads `/api/docs` from the app on a loopback port with no console error and
 * no CSP violation, the search box narrows the resources and their rows, anchors land on their
 * card, and the page fits a phone. Screenshots go to tests/artifacts/ (git-ignored); with
 * UPDATE_DOCS_SCREENSHOT=1 the wide light one is also written to docs/docs-page.png.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { catalogue, createDocsApp, ROOT } from './docs-app';

// The functions given to page.evaluate run in the browser; the project compiles without the DOM
// library, so the little of it they use is declared here.
interface El {
  readonly id: string;
  readonly hidden: boolean;
  readonly open: boolean;
  readonly textContent: string | null;
  getBoundingClientRect(): { readonly top: number };
  querySelector(selector: string): El | null;
}
declare const document: {
  readonly documentElement: { readonly scrollWidth: number };
  readonly body: El;
  getElementById(id: string): El | null;
  querySelector(selector: string): El | null;
  addEventListener(type: 'securitypolicyviolation', listener: (e: { violatedDirective: string; blockedURI: string }) => void): void;
};
declare const window: { readonly scrollY: number; readonly innerWidth: number };
declare function getComputedStyle(element: El): { readonly backgroundColor: string };

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = join(ROOT, 'tests', 'artifacts');
const resources = catalogue().domains.flatMap((d) => d.resources);

// Without Chromium the suite is skipped on a developer machine and fails in CI (which installs it).
const describeBrowser = existsSync(CHROMIUM) || process.env['CI'] ? describe : describe.skip;

describeBrowser('the documentation page in Chromium', () => {
  let server: Server;
  let context: BrowserContext;
  let profile = '';
  let url = '';

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = createDocsApp().listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/docs`;
    profile = mkdtempSync(join(tmpdir(), 'ops-gw-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      timeout: 30000,
      viewport: { width: 1280, height: 860 },
    });
    context.setDefaultTimeout(10000);
    // Init scripts run before the page's own and are not subject to its CSP.
    await context.addInitScript(() => {
      const w = window as unknown as { cspViolations: string[] };
      w.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60000);

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** Opens the page and records what would show in the developer console. */
  async function open(hash = ''): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    await page.goto(`${url}${hash}`, { waitUntil: 'load' });
    return { page, problems };
  }

  const violations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const visibleCards = (page: Page) => page.$$eval('article.res', (cards) => cards.filter((c) => !(c as unknown as El).hidden).map((c) => c.id));

  it('loads with no console error and no CSP violation, and shows every resource', async () => {
    const { page, problems } = await open();
    expect(await page.title()).toContain('Operations data API');
    expect(await visibleCards(page)).toEqual(resources.map((r) => r.path));
    await page.waitForTimeout(200);
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'docs-page.png') });
    if (process.env['UPDATE_DOCS_SCREENSHOT']) await page.screenshot({ path: join(ROOT, 'docs', 'docs-page.png') });
    await page.close();
  }, 60000);

  it('reports a violation when the CSP does not match (the check above can fail)', async () => {
    const page = await context.newPage();
    await page.route('**/api/docs', async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers(), 'content-security-policy': "default-src 'none'; script-src 'sha256-AAAA'; style-src 'sha256-AAAA'" };
      await route.fulfill({ response, headers });
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(200);
    expect((await violations(page)).length).toBeGreaterThan(0);
    await page.close();
  }, 60000);

  it('narrows the resources and their rows as one types in the search box', async () => {
    const { page, problems } = await open();
    const target = resources[resources.length - 1]!;
    await page.fill('#q', target.path);
    expect(await visibleCards(page)).toEqual([target.path]);
    expect(await page.textContent('#count')).toMatch(/^1 resource, [0-9]+ guide sections?$/);
    // Guide sections without the words go.
    expect(await page.isHidden('section.guide#errors')).toBe(true);

    // A field name: its row stays, the other rows of the card go.
    const field = resources.flatMap((r) => r.fields.map((f) => ({ r, f }))).sort((a, b) => b.f.name.length - a.f.name.length)[0]!;
    await page.fill('#q', field.f.name);
    const shown = await visibleCards(page);
    expect(shown).toContain(field.r.path);
    expect(shown.length).toBeLessThan(resources.length);
    const rows = await page.$$eval(`[id="${field.r.path}"] .rows tbody tr`, (trs) =>
      trs.filter((tr) => !(tr as unknown as El).hidden).map((tr) => tr.querySelector('code')?.textContent),
    );
    expect(rows).toContain(field.f.name);
    expect(rows.length).toBeLessThan(field.r.fields.length);

    await page.press('#q', 'Escape');
    expect(await visibleCards(page)).toHaveLength(resources.length);
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);

  it('finds routes, common parameters and guide sections, and says when nothing matches', async () => {
    const { page, problems } = await open();
    // A parameter of the guide: the paging section stays, with its since_id lines only.
    await page.fill('#q', 'since_id');
    expect(await page.isVisible('section.guide#paging')).toBe(true);
    const items = await page.$$eval('section.guide#paging > ul > li', (lis) => lis.filter((li) => !(li as unknown as El).hidden).map((li) => li.textContent ?? ''));
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item).toContain('since_id');
    expect(await page.isHidden('section.guide#authentication')).toBe(true);
    expect(await page.isHidden('#nomatch')).toBe(true);
    // "cursor" is a word of the guide, not a field: found too.
    await page.fill('#q', 'cursor');
    expect(await page.isVisible('section.guide#paging')).toBe(true);
    // A route: its card.
    const target = resources[7]!;
    await page.fill('#q', `/api/v1/${target.path}`);
    expect(await visibleCards(page)).toEqual([target.path]);
    // Nothing: a message, not a blank page.
    await page.fill('#q', 'zzqxj-nothing');
    expect(await visibleCards(page)).toEqual([]);
    expect(await page.isVisible('#nomatch')).toBe(true);
    expect(await page.textContent('#nomatch')).toContain('No match for “zzqxj-nothing”');
    expect(await page.$$eval('section.guide', (gs) => gs.filter((g) => !(g as unknown as El).hidden).length)).toBe(0);
    await page.press('#q', 'Escape');
    expect(await page.isHidden('#nomatch')).toBe(true);
    expect(await visibleCards(page)).toHaveLength(resources.length);
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);

  it.each([1400, 390])(
    'at %i px, no table is wider than its box: every cell, descriptions included, is on screen',
    async (width) => {
      const { page, problems } = await open();
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(() => {
        const boxes = Array.prototype.slice.call((document as unknown as { querySelectorAll(s: string): ArrayLike<unknown> }).querySelectorAll('.scroll')) as {
          scrollWidth: number;
          clientWidth: number;
          closest(s: string): { id: string } | null;
        }[];
        return { boxes: boxes.length, wide: boxes.filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.closest('[id]')?.id) };
      });
      expect(overflow.boxes).toBeGreaterThan(90);
      expect(overflow.wide).toEqual([]);
      const offScreen = await page.$$eval(
        'td',
        (cells, w) => cells.filter((c) => (c as unknown as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right > w + 1).length,
        width,
      );
      expect(offScreen).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width === 390) {
        await page.goto(`${url}#${resources[0]!.path}`, { waitUntil: 'load' });
        await page.screenshot({ path: join(ARTIFACTS, 'docs-page-phone.png') });
        if (process.env['UPDATE_DOCS_SCREENSHOT']) await page.screenshot({ path: join(ROOT, 'docs', 'docs-page-phone.png') });
      }
      expect(problems).toEqual([]);
      await page.close();
    },
    60000,
  );

  it('lands on a resource card from its anchor, and from the sidebar', async () => {
    // Far down the page, but not so near its end that the card cannot scroll to the top.
    const far = resources[Math.floor((resources.length * 3) / 4)]!;
    const { page, problems } = await open(`#${far.path}`);
    const position = async (path: string) =>
      page.evaluate((id) => {
        const el = document.getElementById(id) as El;
        return { target: document.querySelector(':target')?.id, top: el.getBoundingClientRect().top, scrolled: window.scrollY };
      }, path);
    const landed = await position(far.path);
    expect(landed.target).toBe(far.path);
    expect(landed.scrolled).toBeGreaterThan(1000);
    expect(landed.top).toBeGreaterThanOrEqual(0);
    expect(landed.top).toBeLessThan(120);

    const other = resources[Math.floor(resources.length / 3)]!;
    await page.click(`#toc a[href="#${other.path}"]`);
    await page.waitForFunction((id) => document.querySelector(':target')?.id === id, other.path);
    const clicked = await position(other.path);
    expect(clicked.top).toBeGreaterThanOrEqual(0);
    expect(clicked.top).toBeLessThan(120);
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);

  it('fits a phone screen (no sideways scroll) and has a dark theme', async () => {
    const { page, problems } = await open();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    expect(await page.evaluate(() => (document.getElementById('toc-box') as El).open)).toBe(false);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(13, 17, 23)');
    await page.screenshot({ path: join(ARTIFACTS, 'docs-page-phone-dark.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);
});
