/**
 * The docs page's "Try it" panel in a real browser (Debian's Chromium, as docs-browser.test.ts
 * launches it) against the running gateway on the sandbox ERP: a pasted key gets the same answer as
 * the route gives, nothing is stored (no cookie, local or session storage, nothing in the address
 * bar or the page's markup), the key is forgotten on reload, and the page's CSP still lets requests
 * go nowhere but the gateway. Every card's "Try it" (its list and its export, the resources whose name
 * holds a `-` included) is clicked and sent, and each answer's status, headers and body checked
 * against the route's own answer; a new answer, or a refused path, clears the one before. A screenshot of the panel goes to tests/artifacts/ (and, with
 * UPDATE_DOCS_SCREENSHOT=1, to docs/docs-try-it.png).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { asText } from '../support/export-loaders';
import { startStack, type Stack } from '../support/stack';
import { catalogue, ROOT } from './docs-app';

// Run in the browser (the project compiles without the DOM library).
declare const document: { readonly documentElement: { readonly outerHTML: string }; addEventListener(type: string, listener: (e: { violatedDirective: string }) => void): void };
declare const window: unknown;
declare const localStorage: { readonly length: number };
declare const sessionStorage: { readonly length: number };
declare const location: { readonly href: string };

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = join(ROOT, 'tests', 'artifacts');
const describeBrowser = existsSync(CHROMIUM) || process.env['CI'] ? describe : describe.skip;

describeBrowser('the docs page try-it panel in Chromium, against the gateway', () => {
  let stack: Stack;
  let context: BrowserContext;
  let profile = '';

  beforeAll(async () => {
    stack = await startStack({ transport: 'json2' });
    profile = mkdtempSync(join(tmpdir(), 'ops-gw-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 30000, viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(10000);
    await context.addInitScript(() => {
      const w = window as { cspViolations?: string[] };
      w.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.cspViolations?.push(e.violatedDirective));
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function open(): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${stack.url}/api/docs`, { waitUntil: 'load' });
    return { page, problems };
  }

  async function send(page: Page): Promise<{ status: string; body: string; headers: Record<string, string> }> {
    await page.click('#try-send');
    await page.waitForFunction(() =>
      /^[0-9]{3} /.test((globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }).document.getElementById('try-status').textContent),
    );
    const lines = ((await page.textContent('#try-headers code')) ?? '').split('\n').filter(Boolean);
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
    return { status: (await page.textContent('#try-status')) ?? '', body: (await page.textContent('#try-out code')) ?? '', headers };
  }

  it("clicks every card's Try it buttons and Send: each answer's status, headers and body are the route's", async () => {
    const { page, problems } = await open();
    await page.fill('#try-key', stack.keys.valid);
    const resources = catalogue().domains.flatMap((d) => d.resources);
    const tried: string[] = [];
    for (const resource of resources) {
      const buttons = page.locator(`article.res[id="${resource.path}"] button.try`);
      const count = await buttons.count();
      // The list's and the export's, the relations' (an expanded list) where the resource has some, and the aggregate route where it has one.
      const expected = 2 + (resource.relations.length ? 1 : 0) + (resource.aggregate ? 1 : 0);
      expect([resource.path, count]).toEqual([resource.path, expected]);
      for (let i = 0; i < count; i++) {
        await buttons.nth(i).click();
        const route = await page.inputValue('#try-path');
        const answer = await send(page);
        expect([route, answer.status]).toEqual([route, expect.stringMatching(/^200 OK · [0-9]+ ms$/)]);
        expect([route, answer.headers['x-request-id'], answer.headers['cache-control']]).toEqual([route, expect.any(String), 'no-store']);
        if (route.includes('/export?')) {
          const expected = await stack.get(route).buffer(true).parse(asText);
          expect([route, answer.headers['content-type'], answer.headers['content-disposition']]).toEqual([
            route,
            'application/x-ndjson; charset=utf-8',
            expect.stringMatching(/^attachment; /),
          ]);
          const cut = answer.body.indexOf('\n… (cut: ');
          // Past 60,000 characters the page shows the beginning and reads no further.
          expect([route, cut < 0 ? answer.body : answer.body.slice(0, cut)]).toEqual([route, cut < 0 ? expected.body : (expected.body as string).slice(0, cut)]);
        } else {
          const expected = await stack.get(route);
          expect([route, answer.headers['content-type'], answer.headers['etag']]).toEqual([route, 'application/json; charset=utf-8', expected.headers['etag']]);
          expect(answer.headers['server-timing']).toMatch(/erp;/);
          expect([route, JSON.parse(answer.body)]).toEqual([route, expected.body]);
        }
        tried.push(route);
      }
    }
    // Both routes of every resource (and an expanded list where it has relations), the 11 whose name holds a '-' among them.
    expect(tried).toHaveLength(resources.reduce((sum, r) => sum + 2 + (r.relations.length ? 1 : 0) + (r.aggregate ? 1 : 0), 0));
    for (const r of resources.filter((r) => r.relations.length)) expect(tried).toContain(`/api/v1/${r.path}?limit=2&expand=${r.relations[0]?.name}`);
    const hyphenated = resources.filter((r) => r.name.includes('-'));
    expect(hyphenated.length).toBeGreaterThanOrEqual(11);
    for (const r of hyphenated) expect(tried).toContain(`/api/v1/${r.path}?limit=2`);
    expect(problems).toEqual([]);
    await page.close();
  }, 240000);

  it('clears the previous answer: a new answer replaces it, a refused path leaves none', async () => {
    const { page, problems } = await open();
    await page.fill('#try-key', stack.keys.valid);
    await page.fill('#try-path', '/api/v1/fleet/fuel-logs?limit=1');
    const first = await send(page);
    expect(first.status).toMatch(/^200 /);
    await page.fill('#try-path', '/api/v1/fleet/fuel-logs/999999999');
    const missing = await send(page);
    expect(missing.status).toMatch(/^404 /);
    expect(JSON.parse(missing.body)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    expect(missing.headers['x-request-id']).toEqual(expect.any(String));
    await page.fill('#try-path', '/api/v1/fleet/fuel-logs;drop');
    await page.click('#try-send');
    expect(await page.textContent('#try-status')).toContain('The path must be a data route');
    expect(await page.isHidden('#try-answer')).toBe(true);
    expect([await page.textContent('#try-out code'), await page.textContent('#try-headers code')]).toEqual(['', '']);
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);

  it('answers a card route with a real key as the route does, and stores nothing', async () => {
    const { page, problems } = await open();
    await page.click('article.res[id="fleet/vehicles"] button.try');
    expect(await page.inputValue('#try-path')).toBe('/api/v1/fleet/vehicles?limit=2');
    await page.fill('#try-key', stack.keys.valid);
    const before = stack.logLines.length;
    const answer = await send(page);
    expect(answer.status).toMatch(/^200 OK/);
    const expected = await stack.get('/api/v1/fleet/vehicles?limit=2');
    expect(JSON.parse(answer.body)).toEqual(expected.body);
    // The browser's request reached the gateway with the key (its log line has the key's id).
    expect(stack.logLines.slice(before).some((l) => l.includes('"route":"/api/v1/fleet/vehicles"') && l.includes('"key_id"'))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it.png') });
    if (process.env['UPDATE_DOCS_SCREENSHOT']) await page.locator('section#try').screenshot({ path: join(ROOT, 'docs', 'docs-try-it.png') });

    const stored = await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, href: location.href, markup: document.documentElement.outerHTML }));
    expect([stored.local, stored.session]).toEqual([0, 0]);
    expect(await context.cookies()).toEqual([]);
    expect(stored.href).not.toContain(stack.keys.valid);
    expect(stored.markup).not.toContain(stack.keys.valid);
    expect(await page.evaluate(() => (window as { cspViolations: string[] }).cspViolations)).toEqual([]);

    await page.reload({ waitUntil: 'load' });
    expect(await page.inputValue('#try-key')).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);

  it('tries a relation from its card: the expanded page the route answers (issue 30)', async () => {
    const { page, problems } = await open();
    await page.click('article.res[id="purchase/orders"] dd button.try >> nth=-1');
    expect(await page.inputValue('#try-path')).toBe('/api/v1/purchase/orders?limit=2&expand=lines');
    await page.fill('#try-key', stack.keys.valid);
    const answer = await send(page);
    expect(answer.status).toMatch(/^200 OK/);
    const expected = await stack.get('/api/v1/purchase/orders?limit=2&expand=lines');
    expect(JSON.parse(answer.body)).toEqual(expected.body);
    expect((expected.body as { data: { lines: unknown[] }[] }).data.every((order) => Array.isArray(order.lines))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);

  it('reaches the API from the page opened at /api/docs/ (a final slash: sent on to /api/docs)', async () => {
    const page = await context.newPage();
    await page.goto(`${stack.url}/api/docs/#fleet/vehicles`, { waitUntil: 'load' });
    expect(page.url()).toBe(`${stack.url}/api/docs#fleet/vehicles`);
    await page.fill('#try-key', stack.keys.valid);
    await page.fill('#try-path', '/api/v1/events/events/1?fields=id');
    const answer = await send(page);
    expect(answer.status).toMatch(/^200 /);
    expect(JSON.parse(answer.body)).toEqual({ data: { id: 1 } });
    await page.close();
  }, 60000);

  it('shows the error envelope for a wrong key and refuses a path that is not a data route', async () => {
    const { page, problems } = await open();
    await page.fill('#try-key', 'f'.repeat(40));
    await page.fill('#try-path', '/api/v1/fleet/vehicles/1');
    const answer = await send(page);
    expect(answer.status).toMatch(/^401 /);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    await page.fill('#try-path', 'https://example.org/steal');
    await page.click('#try-send');
    expect(await page.textContent('#try-status')).toContain('The path must be a data route');
    expect(problems).toEqual([]);
    await page.close();
  }, 60000);

  it("keeps the page's CSP closed to any other destination", async () => {
    const { page } = await open();
    const outcome = await page.evaluate(() =>
      (globalThis as unknown as { fetch(u: string): Promise<unknown> }).fetch('https://example.org/').then(
        () => 'sent',
        () => 'blocked',
      ),
    );
    expect(outcome).toBe('blocked');
    expect(await page.evaluate(() => (window as { cspViolations: string[] }).cspViolations)).toContain('connect-src');
    await page.close();
  }, 60000);
});
