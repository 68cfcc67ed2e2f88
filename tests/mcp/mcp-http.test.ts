/**
 * The MCP server over streamable HTTP, as an agent meets it: the SDK's own `Client` with its
 * `StreamableHTTPClientTransport`, against the gateway on the sandbox ERP. Every tool is called; the
 * answers are compared with what the HTTP data routes give for the same question (the tools are
 * those routes underneath), and the key rules are the data routes' ones (401, 403, 429).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import supertest from 'supertest';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { catalogue } from '../docs/docs-app';
import { startStack, type Stack } from '../support/stack';

/** The personal-data fields of a resource, as the catalogue flags them. */
const personalFields = (path: string): string[] => (RESOURCES.find((r) => r.path === path)?.fields ?? []).filter((f) => f.personal).map((f) => f.name);

let stack: Stack;

async function connect(key: string | null = stack.keys.valid): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function errorOf(result: CallToolResult): { code: string; message: string; status: number } {
  expect(result.isError).toBe(true);
  const [content] = result.content;
  return (JSON.parse((content as { text: string }).text) as { error: { code: string; message: string; status: number } }).error;
}

beforeAll(async () => {
  stack = await startStack({ transport: 'json2', env: { AUTH_FAILURE_LIMIT: '3' } });
}, 60000);
afterAll(() => stack?.close());

describe('the MCP server over streamable HTTP', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client?.close());

  it('lists the four catalogue tools and one query tool per domain, each with an input and an output schema from the catalogue', async () => {
    const { tools } = await client.listTools();
    const domains = catalogue().domains.map((d) => d.domain);
    expect(domains).toEqual(expect.arrayContaining(['analytic', 'approvals', 'electricity', 'events', 'fleet', 'it', 'purchase', 'space', 'sprint', 'stock', 'travel']));
    expect(tools.map((t) => t.name).sort()).toEqual(['aggregate', 'describe_resource', 'get_record', 'list_resources', ...domains.map((d) => `query_${d}`)].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const fleet = tools.find((t) => t.name === 'query_fleet');
    if (!fleet) throw new Error('no query_fleet tool');
    // The domain's resources are named; their filters, with value types, are describe_resource's (mcp-tools-size.test.ts).
    const properties = fleet.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(properties['resource']?.enum).toEqual(expect.arrayContaining(['vehicles', 'fuel-logs', 'trips']));
    // Named filters only: no raw domain anywhere in any schema.
    expect(JSON.stringify(tools)).not.toMatch(/"domain"\s*:\s*\{/);
  });

  it('every query tool answers every resource of its domain within its output schema (the SDK client checks it)', async () => {
    const { tools } = await client.listTools();
    const described = ((await call(client, 'list_resources', {})).structuredContent as { resources: { resource: string; query_tool: string }[] }).resources;
    for (const { resource, query_tool } of described) {
      expect(tools.map((t) => t.name)).toContain(query_tool);
      const name = resource.split('/')[1] as string;
      const result = await call(client, query_tool, { resource: name, limit: 2 });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { resource: string; data: unknown[] }).data.length).toBeGreaterThan(0);
      const fields = ((await call(client, 'describe_resource', { resource })).structuredContent as { fields: { name: string }[] }).fields.map((f) => f.name);
      const full = await call(client, query_tool, { resource: name, limit: 2, fields });
      expect(Object.keys((full.structuredContent as { data: object[] }).data[0] as object)).toEqual(fields);
    }
  });

  it('list_resources names every resource with its query tool', async () => {
    const result = await call(client, 'list_resources', {});
    const resources = (result.structuredContent as { resources: { resource: string; query_tool: string }[] }).resources;
    expect(resources.map((r) => r.resource).sort()).toEqual(
      catalogue()
        .domains.flatMap((d) => d.resources.map((r) => r.path))
        .sort(),
    );
    expect(resources).toContainEqual(expect.objectContaining({ resource: 'fleet/vehicles', query_tool: 'query_fleet' }));
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });

  it('describe_resource gives fields, enums, filters, sort keys and personal-data flags', async () => {
    const vehicles = (await call(client, 'describe_resource', { resource: 'fleet/vehicles' })).structuredContent as Record<string, unknown>;
    expect(vehicles['query_tool']).toBe('query_fleet');
    expect(vehicles['sortable']).toEqual(expect.arrayContaining(['plate']));
    expect(vehicles['fields']).toContainEqual(expect.objectContaining({ name: 'fuel_type', enum: expect.arrayContaining(['diesel', 'electric']), personal: false }));
    expect(vehicles['filters']).toContainEqual(expect.objectContaining({ name: 'insurance_expiry_before', op: '<=', type: 'date' }));
    const registrations = (await call(client, 'describe_resource', { resource: 'events/registrations' })).structuredContent as { fields: { name: string; personal: boolean }[] };
    expect(registrations.fields.filter((f) => f.personal).map((f) => f.name)).toEqual(personalFields('events/registrations'));
    expect(personalFields('events/registrations')).toEqual(expect.arrayContaining(['attendee', 'email', 'phone']));
  });

  it('query_fleet walks vehicles with a filter and the cursor to the end, as the HTTP route does', async () => {
    const ids: number[] = [];
    let since = 0;
    for (let page = 0; page < 50; page++) {
      const result = await call(client, 'query_fleet', {
        resource: 'vehicles',
        filters: { fuel_type: 'diesel' },
        since_id: since,
        limit: 7,
        total: false,
        fields: ['id', 'plate', 'fuel_type'],
      });
      expect(result.isError).toBeFalsy();
      const { data, meta } = result.structuredContent as { data: { id: number; fuel_type: string }[]; meta: { next_since_id: number | null } };
      for (const record of data) expect(record.fuel_type).toBe('diesel');
      ids.push(...data.map((r) => r.id));
      if (meta.next_since_id === null) break;
      since = meta.next_since_id;
    }
    const all = await stack.get('/api/v1/fleet/vehicles?fuel_type=diesel&since_id=0&limit=200&total=false&fields=id');
    expect(ids).toEqual((all.body as { data: { id: number }[] }).data.map((r) => r.id));
    expect(ids.length).toBeGreaterThan(7);
  });

  it('get_record answers the record the detail route answers, personal data left out', async () => {
    const http = await stack.get('/api/v1/fleet/vehicles/3');
    const result = await call(client, 'get_record', { resource: 'fleet/vehicles', id: 3 });
    const personal = personalFields('fleet/vehicles');
    expect(personal).toContain('driver');
    const { data, meta } = http.body as { data: Record<string, unknown>; meta: Record<string, unknown> };
    expect(meta).toEqual({ unreadable_fields: ['odometer'] });
    expect(result.structuredContent).toEqual({
      resource: 'fleet/vehicles',
      data: Object.fromEntries(Object.entries(data).filter(([name]) => !personal.includes(name))),
      meta: { ...meta, personal_fields_omitted: personal },
    });
    const missing = errorOf(await call(client, 'get_record', { resource: 'fleet/vehicles', id: 999999 }));
    expect(missing).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('leaves personal data out unless the call names it in fields', async () => {
    const plain = await call(client, 'query_events', { resource: 'registrations', limit: 3 });
    const records = (plain.structuredContent as { data: Record<string, unknown>[]; meta: { personal_fields_omitted: string[] } }).data;
    expect(records.length).toBe(3);
    for (const record of records) for (const name of personalFields('events/registrations')) expect(record).not.toHaveProperty(name);
    expect((plain.structuredContent as { meta: { personal_fields_omitted: string[] } }).meta.personal_fields_omitted).toEqual(personalFields('events/registrations'));
    const named = await call(client, 'query_events', { resource: 'registrations', limit: 3, fields: ['id', 'email'] });
    for (const record of (named.structuredContent as { data: Record<string, unknown>[] }).data) expect(Object.keys(record)).toEqual(['id', 'email']);
    const one = await call(client, 'get_record', { resource: 'events/registrations', id: records[0]?.['id'] as number });
    expect(one.structuredContent).not.toHaveProperty('data.email');
  });

  it("expands relations as the routes do, leaving the related records' personal data out unless named (issue 30)", async () => {
    // events/events registrations: the registrations hold personal data (name, email, phone).
    const personal = personalFields('events/registrations');
    expect(personal.length).toBeGreaterThan(0);
    const result = await call(client, 'query_events', { resource: 'events', limit: 3, fields: ['name'], expand: 'registrations' });
    const content = result.structuredContent as { data: Record<string, unknown>[]; meta: { personal_fields_omitted: string[]; expanded: unknown } };
    const kept = (RESOURCES.find((r) => r.path === 'events/registrations')?.fields ?? []).filter((f) => !f.personal).map((f) => f.name);
    const http = await stack.get(`/api/v1/events/events?limit=3&fields=name&expand=registrations(${kept.join(',')})`);
    expect(content.data).toEqual((http.body as { data: unknown[] }).data);
    expect(content.meta.personal_fields_omitted).toEqual(personal.map((name) => `registrations.${name}`));
    expect(content.meta.expanded).toEqual((http.body as { meta: { expanded: unknown } }).meta.expanded);
    const named = await call(client, 'get_record', { resource: 'events/registrations', id: 1, expand: 'event_record(id,name)' });
    const detail = await stack.get('/api/v1/events/registrations/1?expand=event_record(id,name)');
    const record = (detail.body as { data: Record<string, unknown> }).data;
    expect(record['event_record']).toEqual({ id: record['event_id'], name: expect.any(String) });
    // The registration's own personal data is left out (no fields named); the event's two fields are as asked.
    expect((named.structuredContent as { data: unknown }).data).toEqual(Object.fromEntries(Object.entries(record).filter(([k]) => !personal.includes(k))));
    expect(errorOf(await call(client, 'query_events', { resource: 'events', expand: 'nope' }))).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it('answers a bad filter value as a tool error with the API code and message', async () => {
    const http = await stack.get('/api/v1/fleet/vehicles?fuel_type=steam');
    const error = errorOf(await call(client, 'query_fleet', { resource: 'vehicles', filters: { fuel_type: 'steam' } }));
    expect(error).toEqual({ code: 'invalid_value', message: http.body.error.message, status: 422 });
    expect(errorOf(await call(client, 'query_fleet', { resource: 'vehicles', filters: { domain: "[('id','>',0)]" } }))).toMatchObject({ code: 'bad_request' });
    expect(errorOf(await call(client, 'query_fleet', { resource: 'vehicles', filters: { limit: 5 } }))).toMatchObject({ code: 'bad_request' });
    expect(errorOf(await call(client, 'query_fleet', { resource: 'orders' }))).toMatchObject({ code: 'bad_request' });
    expect(errorOf(await call(client, 'query_fleet', { resource: 'vehicles', order: 'odometer desc' }))).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it('a key without read right on the model gets a forbidden tool error, like the route', async () => {
    const noRead = await connect(stack.keys.no_read.key);
    try {
      const [domain, name] = stack.keys.no_read.resource.split('/') as [string, string];
      const error = errorOf(await call(noRead, `query_${domain}`, { resource: name }));
      expect(error).toMatchObject({ code: 'forbidden', status: 403 });
    } finally {
      await noRead.close();
    }
  });

  it('each tool call is logged as its data route, with the key id and never the key', async () => {
    const before = stack.logLines.length;
    await call(client, 'query_fleet', { resource: 'vehicles', filters: { plate: 'a' }, limit: 2 });
    const lines = stack.logLines
      .slice(before)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['msg'] === 'request');
    // `fields`: every field of vehicles but the personal ones (the driver), which the tool leaves out.
    expect(lines).toContainEqual(expect.objectContaining({ route: '/api/v1/fleet/vehicles', status: 200, query_keys: ['plate', 'limit', 'fields'] }));
    expect(lines).toContainEqual(expect.objectContaining({ route: '/mcp', method: 'POST', status: 200 }));
    expect(lines.every((l) => typeof l['key_id'] === 'string')).toBe(true);
    expect(stack.logLines.join('\n')).not.toContain(stack.keys.valid);
  });
});

describe('the MCP endpoint applies the data routes key rules', () => {
  const initialize = (key: string | null, address?: string) => {
    const req = supertest(stack.url).post('/mcp').set('Accept', 'application/json, text/event-stream').set('Content-Type', 'application/json');
    if (key) req.set('Authorization', `Bearer ${key}`);
    if (address) req.set('X-Forwarded-For', address);
    return req.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  };

  it('401 with WWW-Authenticate without a key, and the SDK client cannot connect', async () => {
    const res = await initialize(null);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    await expect(connect(null)).rejects.toThrow();
  });

  it('403 for a key of an account outside the API group', async () => {
    const res = await initialize(stack.keys.forbidden);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('405 for GET (stateless: no stream to open)', async () => {
    const res = await stack.get('/mcp');
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('POST');
  });

  it('429 with Retry-After once failed keys pass the limit, as on the data routes', async () => {
    // AUTH_FAILURE_LIMIT=3 for this stack; the 401s above already count against this address.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await initialize(`bad${i}${'0'.repeat(36)}`)).status);
    const firstRefusal = statuses.indexOf(429);
    expect(firstRefusal).toBeGreaterThanOrEqual(0);
    expect(statuses.slice(0, firstRefusal).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(firstRefusal).every((s) => s === 429)).toBe(true);
    const res = await initialize(`bad9${'0'.repeat(36)}`);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^[0-9]+$/);
    // The limit is per client address, and shared with the data routes.
    expect((await stack.get('/api/v1/fleet/vehicles', `bad8${'0'.repeat(36)}`)).status).toBe(429);
  });
});
