/**
 * `npm run mcp` as a local agent starts it: the stdio entry (release/mcp-stdio.js, bundled by
 * `make release` from runtime/mcp/stdio.ts) spawned by the SDK's own `StdioClientTransport`, with GATEWAY_URL and API_KEY in
 * its environment, bridging to the gateway's /mcp on the sandbox ERP. Every tool is called through
 * it; a refused key stops it with a message on stderr and nothing on stdout (the protocol channel).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCES } from '@ops-data-gateway/gateway/generated/routers/index';
import { catalogue } from '../docs/docs-app';
import { startStack, type Stack } from '../support/stack';

/** What `npm run mcp` runs: the committed bundle (production-install.test.ts fails when it is stale). */
const ENTRY = join(__dirname, '..', '..', 'packages', 'gateway', 'release', 'mcp-stdio.js');
let stack: Stack;
let client: Client;

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  stack = await startStack({ transport: 'json2' });
  client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [ENTRY], env: { GATEWAY_URL: stack.url, API_KEY: stack.keys.valid }, stderr: 'pipe' }));
}, 60000);
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

describe('npm run mcp (stdio, bridged to the gateway)', () => {
  it('lists the gateway tools, unchanged', async () => {
    const { tools } = await client.listTools();
    const http = await fetch(`${stack.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.keys.valid}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(tools).toEqual(((await http.json()) as { result: { tools: unknown[] } }).result.tools);
    // The four catalogue tools (aggregate among them) and one query tool per domain.
    expect(tools).toHaveLength(4 + catalogue().domains.length);
    // The version it announces is the gateway's: the interface version of the catalogue.
    expect(client.getServerVersion()).toMatchObject({ name: 'ops-data-gateway', version: catalogue().version });
  });

  it('calls every kind of tool: list, describe, query with a filter and the cursor to the end, get', async () => {
    const listed = (await call('list_resources', {})).structuredContent as { resources: unknown[] };
    expect(listed.resources).toHaveLength(catalogue().domains.flatMap((d) => d.resources).length);
    const described = (await call('describe_resource', { resource: 'fleet/vehicles' })).structuredContent as { filters: { name: string }[] };
    expect(described.filters.map((f) => f.name)).toContain('insurance_expiry_before');
    const ids: number[] = [];
    let since = 0;
    for (let page = 0; page < 50; page++) {
      const result = await call('query_fleet', { resource: 'vehicles', filters: { insurance_expiry_before: '2027-01-01' }, since_id: since, limit: 20, total: false });
      const { data, meta } = result.structuredContent as { data: { id: number }[]; meta: { next_since_id: number | null } };
      ids.push(...data.map((r) => r.id));
      if (meta.next_since_id === null) break;
      since = meta.next_since_id;
    }
    const all = await stack.get('/api/v1/fleet/vehicles?insurance_expiry_before=2027-01-01&since_id=0&limit=200&total=false&fields=id');
    expect(ids).toEqual((all.body as { data: { id: number }[] }).data.map((r) => r.id));
    const record = await call('get_record', { resource: 'fleet/vehicles', id: ids[0] as number });
    // The detail route's record, but for the personal data the tools leave out unless named (the driver).
    const personal =
      RESOURCES.find((r) => r.path === 'fleet/vehicles')
        ?.fields.filter((f) => f.personal)
        .map((f) => f.name) ?? [];
    expect(personal).toContain('driver');
    const detail = (await stack.get(`/api/v1/fleet/vehicles/${ids[0]}`)).body as {
      data: Record<string, unknown>;
      meta: Record<string, unknown>;
    };
    expect(record.structuredContent).toEqual({
      resource: 'fleet/vehicles',
      data: Object.fromEntries(Object.entries(detail.data).filter(([name]) => !personal.includes(name))),
      meta: { ...detail.meta, personal_fields_omitted: personal },
    });
  });

  it('passes a bad filter value back as the API tool error', async () => {
    const result = await call('query_fleet', { resource: 'vehicles', filters: { insurance_expiry_before: 'soon' } });
    expect(result.isError).toBe(true);
    const error = JSON.parse((result.content[0] as { text: string }).text).error;
    expect(error).toMatchObject({ code: 'invalid_value', status: 422 });
    expect(error.message).toBe((await stack.get('/api/v1/fleet/vehicles?insurance_expiry_before=soon')).body.error.message);
  });

  it('answers a prototype name as an unknown one through the bridge: a resource, and an argument named __proto__', async () => {
    const errorOf = (result: CallToolResult) => [result.isError, JSON.parse((result.content[0] as { text: string }).text).error];
    const unknownResource = errorOf(await call('get_record', { resource: 'zz_unknown', id: 1 }));
    expect(unknownResource).toEqual([true, expect.objectContaining({ code: 'bad_request', status: 400 })]);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(errorOf(await call('get_record', { resource: name, id: 1 }))).toEqual([true, { ...unknownResource[1], message: expect.stringContaining(JSON.stringify(name)) }]);
    // JSON.parse keeps "__proto__" as an own key (an object literal would set the prototype instead).
    const args = JSON.parse('{"resource": "fleet/vehicles", "id": 1, "__proto__": 1}') as Record<string, unknown>;
    expect(errorOf(await call('get_record', args))).toEqual([true, { code: 'bad_request', status: 400, message: expect.stringContaining("Unknown argument '__proto__'") }]);
  });

  it('stops with a message on stderr when the gateway refuses the key', async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, [ENTRY], { env: { GATEWAY_URL: stack.url, API_KEY: 'f'.repeat(40) }, timeout: 15000 }).catch((e: unknown) => e);
    const { code, stdout, stderr } = failed as { code: number; stdout: string; stderr: string };
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/ops-data-gateway mcp: cannot open .*\/mcp: .*"code":"unauthorized"/);
    expect(stderr).not.toContain('f'.repeat(40));
  });

  it('refuses to start without API_KEY, naming the variable', async () => {
    const failed = await promisify(execFile)(process.execPath, [ENTRY], { env: { GATEWAY_URL: stack.url }, timeout: 15000 }).catch((e: unknown) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain('API_KEY is required');
  });
});
