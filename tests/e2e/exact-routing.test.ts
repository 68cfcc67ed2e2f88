/**
 * Paths are matched exactly, over real HTTP against the sandbox: a path that differs from a served one
 * by letter case or a trailing slash is not served under that URL (Express would have answered it as
 * the served one), and its 404 names the served path; only the served spelling of a path is 405 for
 * another method. The ERP is not asked anything for such a path.
 */
import request from 'supertest';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ transport: 'json2' });
});
afterAll(() => stack.close());

const envelope = (body: unknown) => (body as { error: { code: string; message: string } }).error;
const HINT = 'Paths are matched exactly (letter case, no trailing slash): did you mean';

describe('a path that differs from a served one only by case or a trailing slash', () => {
  it.each([
    ['/api/v1/fleet/vehicles/', '/api/v1/fleet/vehicles'],
    ['/api/v1/fleet/vehicles//', '/api/v1/fleet/vehicles'],
    ['/api/v1/Fleet/Vehicles', '/api/v1/fleet/vehicles'],
    ['/API/V1/FLEET/VEHICLES/', '/api/v1/fleet/vehicles'],
    ['/api/v1/fleet/vehicles/1/', '/api/v1/fleet/vehicles/1'],
    ['/api/v1/stock/Pickings/1', '/api/v1/stock/pickings/1'],
    ['/api/OpenAPI.json', '/api/openapi.json'],
    ['/API/Docs', '/api/docs'],
    ['/LLMS.TXT', '/llms.txt'],
    ['/Healthz', '/healthz'],
  ])('GET %s is 404 not_found naming %s, and reads nothing from the ERP', async (path, served) => {
    const calls = stack.erpCalls.length;
    const res = await stack.get(path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(envelope(res.body)).toEqual({ code: 'not_found', message: `No route GET ${path}. ${HINT} ${served}?` });
    expect(stack.erpCalls.slice(calls)).toEqual([]);
  });

  it('sends a browser from /api/docs/ (a final slash) on to the page, relative to where it is', async () => {
    const res = await stack.get('/api/docs/', null);
    expect([res.status, res.headers['location']]).toEqual([308, '../docs']);
    expect(new URL(res.headers['location'] as string, `${stack.url}/api/docs/`).pathname).toBe('/api/docs');
  });

  it('serves the exact spelling of each of those paths', async () => {
    for (const path of ['/api/v1/fleet/vehicles', '/api/v1/fleet/vehicles/1', '/api/openapi.json', '/api/docs', '/llms.txt', '/healthz'])
      expect([path, (await stack.get(path)).status]).toEqual([path, 200]);
  });

  it('gives no hint for a path nothing serves in any spelling', async () => {
    for (const path of ['/', '/api/v1/fleet/boats', '/api/v1/fleet/boats/', '/API/V2/FLEET/VEHICLES']) {
      const res = await stack.get(path);
      expect([path, res.status, envelope(res.body)]).toEqual([path, 404, { code: 'not_found', message: `No route GET ${path}.` }]);
    }
  });

  it('answers another method 405 only on the served spelling; on a misspelling, 404 with the hint', async () => {
    const served = await request(stack.url).post('/api/v1/fleet/vehicles').set('Authorization', `Bearer ${stack.keys.valid}`);
    expect([served.status, served.headers['allow']]).toEqual([405, 'GET, HEAD']);
    const misspelt = await request(stack.url).post('/API/v1/fleet/vehicles/').set('Authorization', `Bearer ${stack.keys.valid}`);
    expect([misspelt.status, envelope(misspelt.body)]).toEqual([404, { code: 'not_found', message: `No route POST /API/v1/fleet/vehicles/. ${HINT} /api/v1/fleet/vehicles?` }]);
  });

  it('keeps the MCP endpoint at /mcp only', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { Authorization: `Bearer ${stack.keys.valid}`, Accept: 'application/json, text/event-stream' };
    expect((await request(stack.url).post('/mcp').set(headers).send(body)).status).toBe(200);
    const misspelt = await request(stack.url).post('/MCP').set(headers).send(body);
    expect([misspelt.status, envelope(misspelt.body)]).toEqual([404, { code: 'not_found', message: `No route POST /MCP. ${HINT} /mcp?` }]);
  });
});
