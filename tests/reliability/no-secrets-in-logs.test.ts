/**
 * Keys and personal data are never written to the log (decision D10, and the README's promise on
 * keys). Every log line of one gateway is captured across its success paths (personal data read from
 * every route that has some, as the catalogue flags it), 401, 403, a key misplaced in the URL, the ERP
 * down or answering garbage, the ERP's own error quoting a record's e-mail, and the crash path (an
 * ERP answer of the wrong shape, 502; the crash path itself is proven on the error handler below); then none of the keys and
 * none of the personal values may appear in any line. The error handler's own guard against logging
 * an error's properties (an HTTP client error carries the Authorization header) is unit-tested too.
 */
import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { createErrorHandler } from '@ops-data-gateway/gateway/runtime/http/error-handler';
import { maskSecrets } from '@ops-data-gateway/gateway/runtime/http/mask-secrets';
import { createLogger } from '@ops-data-gateway/gateway/runtime/log';
import type { FaultProxy } from '../support/fault-proxy';
import { startStackBehindProxy, type Stack } from '../support/stack';
import { mintKey } from './support/sandbox-keys';

/** Every route with personal data, as the catalogue flags it. */
const PERSONAL_ROUTES = RESOURCES.filter((r) => r.fields.some((f) => f.personal)).map((r) => r.path);

describe('no key and no personal data in the log', () => {
  let stack: Stack;
  let proxy: FaultProxy;
  const keys: string[] = [];
  const personal = new Set<string>();

  beforeAll(async () => {
    ({ stack, proxy } = await startStackBehindProxy({ transport: 'json2', env: { LOG_LEVEL: 'debug' } }));
    keys.push(stack.keys.valid, stack.keys.forbidden, stack.keys.expired, stack.keys.no_read.key);
  });
  afterAll(async () => {
    await proxy.close();
    await stack.close();
  });
  afterEach(() => {
    proxy.mode = { kind: 'forward' };
  });

  const get = (path: string, key: string | null = stack.keys.valid) => stack.get(path, key);

  it('reads personal data successfully (and remembers every value)', async () => {
    for (const path of PERSONAL_ROUTES) {
      const resource = RESOURCES.find((r) => r.path === path);
      const fields = resource?.fields.filter((f) => f.personal).map((f) => f.name) ?? [];
      expect(fields.length).toBeGreaterThan(0);
      const list = await get(`/api/v1/${path}?limit=50`);
      expect(list.status).toBe(200);
      for (const record of list.body.data as Record<string, unknown>[])
        for (const field of fields) if (typeof record[field] === 'string' && (record[field] as string).length >= 5) personal.add(record[field] as string);
      const detail = await get(`/api/v1/${path}/${list.body.data[0].id}`);
      expect(detail.status).toBe(200);
      // Filtering on personal data: the value travels in the query string.
      if (path === 'events/registrations') {
        const email = list.body.data.find((r: { email: string | null }) => r.email)?.email as string;
        expect((await get(`/api/v1/${path}?email=${encodeURIComponent(email)}`)).status).toBe(200);
      }
    }
    expect(personal.size).toBeGreaterThan(20);
  });

  it('401 and 403 paths: wrong, expired, misplaced and foreign keys', async () => {
    const wrong = 'f'.repeat(40);
    keys.push(wrong);
    expect((await get('/api/v1/fleet/vehicles', wrong)).status).toBe(401);
    expect((await get('/api/v1/fleet/vehicles', stack.keys.expired)).status).toBe(401);
    expect((await get('/api/v1/fleet/vehicles', stack.keys.forbidden)).status).toBe(403);
    expect((await get(`/api/v1/${stack.keys.no_read.resource}`, stack.keys.no_read.key)).status).toBe(403);
    expect((await request(stack.url).get('/api/v1/fleet/vehicles').set('Authorization', `Basic ${stack.keys.valid}`)).status).toBe(401);
    // A key put in the URL by mistake: as a query parameter, as a path, as a record id.
    expect((await get(`/api/v1/fleet/vehicles?api_key=${stack.keys.valid}`)).status).toBe(400);
    expect((await get(`/api/v1/${stack.keys.valid}`)).status).toBe(404);
    expect((await get(`/${stack.keys.valid}/fleet`, null)).status).toBe(404);
    expect((await get(`/api/v1/fleet/vehicles/${stack.keys.valid}`)).status).toBe(404);
    // Split by '/' (no long token left to mask) and percent-encoded: the path of a 404 is not logged at all.
    const halves = [stack.keys.valid.slice(0, 20), stack.keys.valid.slice(20)];
    keys.push(...halves);
    expect((await get(`/api/v1/${halves[0]}/${halves[1]}`)).status).toBe(404);
    const email = [...personal].find((value) => value.includes('@')) as string;
    expect((await get(`/api/v1/fleet/${encodeURIComponent(email)}`)).status).toBe(404);
    expect((await get(`/api/v1/fleet/vehicles?${encodeURIComponent(email)}=1`)).status).toBe(400);
    keys.push(encodeURIComponent(email));
  });

  it('ERP failure paths: down, garbage, and an ERP error quoting a record', async () => {
    const fresh = mintKey(stack.dbPath, { name: 'used while the ERP is down' });
    keys.push(fresh);
    await proxy.stopListening();
    expect((await get('/api/v1/events/registrations?limit=5')).status).toBe(502);
    expect((await get('/api/v1/events/registrations?limit=5', fresh)).status).toBe(502);
    await proxy.listenAgain();
    proxy.mode = { kind: 'garbage' };
    expect((await get('/api/v1/travel/trips?limit=5')).status).toBe(502);
    const quoted = [...personal].find((value) => value.includes('@')) as string;
    proxy.mode = {
      kind: 'rewrite',
      rewrite: (path, body) =>
        path.endsWith('/search_read') ? { status: 500, body: JSON.stringify({ name: 'builtins.ValueError', message: `Wrong value for email: ${quoted}` }) } : body,
    };
    expect((await get('/api/v1/events/registrations?limit=5')).status).toBe(502);
    const lines = stack.logLines.map((line) => JSON.parse(line) as { level: string; erp_error?: string; erp_message?: string });
    // At info: the class of the failure, never the ERP's words (they quote records: names, phones, e-mails).
    expect(lines.filter((line) => line.erp_error === 'ErpFault builtins.ValueError (server_error)').length).toBe(1);
    expect(lines.filter((line) => line.level !== 'debug' && JSON.stringify(line).includes('Wrong value')).length).toBe(0);
    // At debug only: the ERP's words, with the e-mail masked.
    const debug = lines.filter((line) => line.erp_message?.includes('Wrong value for email'));
    expect(debug.map((line) => [line.level, line.erp_message])).toEqual([['debug', 'ErpFault: Wrong value for email: [redacted]']]);
  });

  it('an ERP answer of the wrong shape (records where a list is due) is a 502, logged without data', async () => {
    proxy.mode = { kind: 'rewrite', rewrite: (path, body) => (path.endsWith('/search_read') ? JSON.stringify({ records: JSON.parse(body) }) : body) };
    const res = await get('/api/v1/events/registrations?limit=20');
    expect([res.status, res.body.error.code]).toEqual([502, 'bad_gateway']);
    const line = stack.logLines
      .map((text) => JSON.parse(text) as { status?: number; erp_error?: string })
      .find((l) => l.status === 502 && l.erp_error?.includes('not a list of records'));
    expect(line).toBeDefined();
  });

  it('wrote none of the keys and none of the personal values, in any line', () => {
    expect(stack.logLines.length).toBeGreaterThan(20);
    const all = stack.logLines.join('\n');
    const leakedKeys = keys.filter((key) => all.includes(key));
    expect(leakedKeys).toEqual([]);
    const leaked = [...personal].filter((value) => all.includes(value) || all.includes(JSON.stringify(value).slice(1, -1)));
    expect(leaked).toEqual([]);
  });
});

describe('the error handler logs an unexpected error without its properties', () => {
  it('keeps type, message and stack, drops what an HTTP client error carries (the Authorization header)', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const app = express();
    app.get('/boom', () => {
      throw Object.assign(new Error('socket hang up'), {
        config: { headers: { Authorization: `bearer ${key}` }, data: '{"email":"jane.doe@example.org"}' },
        request: { _header: `POST /json/2/res.users/context_get HTTP/1.1\r\nAuthorization: bearer ${key}\r\n` },
      });
    });
    app.use(createErrorHandler(createLogger('info', sink)));
    const res = await request(app).get(`/boom`);
    expect(res.status).toBe(500);
    const line = JSON.parse(lines.join('')) as { error: Record<string, unknown> };
    expect(Object.keys(line.error).sort()).toEqual(['message', 'stack', 'type']);
    expect(line.error['type']).toBe('Error');
    expect(lines.join('')).not.toContain(key);
    expect(lines.join('')).not.toContain('jane.doe');
  });

  it.each([
    ['a key', `/api/v1/${'ab12'.repeat(10)}/x`, '/api/v1/[redacted]/x'],
    ['an e-mail', 'Wrong value: jane.doe@example.org (x)', 'Wrong value: [redacted] (x)'],
    ['ordinary words', 'ErpUnavailable: ERP unreachable (ECONNREFUSED)', 'ErpUnavailable: ERP unreachable (ECONNREFUSED)'],
  ])('maskSecrets masks %s', (_case, text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });
});
