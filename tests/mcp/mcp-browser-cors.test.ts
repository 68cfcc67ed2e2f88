/**
 * A browser-based MCP client (an agent UI, an inspector) on an origin listed in CORS_ORIGINS calls
 * `POST /mcp` from a page's script in a real browser (Debian's Chromium, driven by playwright-core):
 * the preflight allows the POST with the headers a streamable-HTTP client sends, and the answer is
 * readable. A page on another origin is refused by the browser itself. The gateway runs on the
 * sandbox; each page is served by a bare loopback server on a port of its own (another origin).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { startStack, type Stack } from '../support/stack';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// Without Chromium the suite is skipped on a developer machine and fails in CI (which installs it).
const describeBrowser = existsSync(CHROMIUM) || process.env['CI'] ? describe : describe.skip;

/** What the page's script does: the calls of an MCP client over streamable HTTP, as the SDK's transport sends them. */
interface PageCall {
  readonly url: string;
  readonly key: string;
  readonly message: unknown;
}
type PageAnswer = { readonly status: number; readonly body: unknown; readonly requestId: string | null } | { readonly refused: string };

async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!DOCTYPE html><title>agent</title>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describeBrowser('MCP from a page in Chromium, with CORS_ORIGINS', () => {
  let stack: Stack;
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  let context: BrowserContext;
  let profile = '';

  beforeAll(async () => {
    allowed = await pageServer();
    other = await pageServer();
    stack = await startStack({ transport: 'json2', env: { CORS_ORIGINS: allowed.origin } });
    profile = mkdtempSync(join(tmpdir(), 'ops-gw-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 30000 });
    context.setDefaultTimeout(10000);
  }, 60000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    for (const page of [allowed, other]) await new Promise((resolve) => page?.server.close(resolve));
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** Posts one JSON-RPC message to the gateway's /mcp from a page of `origin`, as fetch in that page. */
  async function postFrom(origin: string, message: unknown, key = stack.keys.valid): Promise<PageAnswer> {
    const page = await context.newPage();
    try {
      await page.goto(origin);
      return await page.evaluate(
        async ({ url, key, message }: PageCall): Promise<PageAnswer> => {
          try {
            const res = await fetch(`${url}/mcp`, {
              method: 'POST',
              headers: {
                Authorization: `Bearer ${key}`,
                'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream',
                'Mcp-Protocol-Version': '2025-06-18',
              },
              body: JSON.stringify(message),
            });
            return { status: res.status, body: await res.json(), requestId: res.headers.get('X-Request-Id') };
          } catch (error) {
            return { refused: String(error) };
          }
        },
        { url: stack.url, key, message },
      );
    } finally {
      await page.close();
    }
  }

  it('lists the tools and calls one from the allowed origin', async () => {
    const listed = await postFrom(allowed.origin, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect('status' in listed && listed.status).toBe(200);
    // The three catalogue tools and one query tool per domain.
    expect((listed as { body: { result: { tools: unknown[] } } }).body.result.tools).toHaveLength(4 + new Set(RESOURCES.map((r) => r.domain)).size);
    // The request id is an exposed header: a page can quote it.
    expect((listed as { requestId: string | null }).requestId).toMatch(/^[0-9a-f-]{16,}$/i);
    const called = await postFrom(allowed.origin, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_record', arguments: { resource: 'fleet/vehicles', id: 3 } },
    });
    expect('status' in called && called.status).toBe(200);
    const result = (called as { body: { result: { isError?: boolean; structuredContent?: { data: { id: number } } } } }).body.result;
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent?.data.id).toBe(3);
  }, 30000);

  it("lets the page read the gateway's 401 when the key is wrong", async () => {
    const answer = await postFrom(allowed.origin, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, '0123456789abcdef0123456789abcdef01234567');
    expect(answer).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
  }, 30000);

  it('is refused by the browser from an origin not listed', async () => {
    const answer = await postFrom(other.origin, { jsonrpc: '2.0', id: 4, method: 'tools/list' });
    expect(answer).toEqual({ refused: expect.stringContaining('Failed to fetch') });
  }, 30000);
});
