/**
 * Names a client chooses are never looked up on a prototype. Every name of `Object.prototype`
 * (`__proto__`, `constructor`, `toString`, `hasOwnProperty`, ...) is sent wherever a route or a tool
 * takes a name, for every resource: as a path segment (domain, resource, id), a query parameter, a
 * field in `fields=`, a sort key in `order=`, a format, an enum filter's value; and, through the
 * official MCP client, as a tool name and, for every tool, an argument name, a resource, a filter
 * name, a field, a sort key, an enum value. The oracle for each is the answer the same position gives an unknown name
 * (`zz_unknown_name`): the same status and error code (HTTP: the 4xx envelope; MCP: the tool error),
 * never a 500, never a success, and no name reaches the ERP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import mcpTools from '@ops-data-gateway/gateway/generated/mcp-tools.json';
import { startStack, type Stack } from '../support/stack';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const UNKNOWN = 'zz_unknown_name';

interface ResourceEntry {
  readonly resource: string;
  readonly query_tool: string;
  readonly filters: readonly { name: string; type: string; example: string }[];
}
const RESOURCES = Object.values(mcpTools.resources as unknown as Record<string, ResourceEntry>);

/** Runs `tasks` at most `width` at a time (the in-process gateway and its client share one event loop). */
async function inParallel<T>(tasks: readonly (() => Promise<T>)[], width = 16): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await (tasks[i] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ transport: 'json2' });
}, 60000);
afterAll(() => stack?.close());

describe('HTTP: a prototype name wherever a route takes a name', () => {
  /** Where a name goes in a request to `resource` (its path `domain/name`). */
  const positions = (r: ResourceEntry): [string, (name: string) => string][] => {
    const [domain, name] = r.resource.split('/') as [string, string];
    const list = `/api/v1/${r.resource}`;
    const enumFilter = r.filters.find((f) => f.type === 'enum');
    return [
      ['domain segment', (n) => `/api/v1/${encodeURIComponent(n)}/${name}`],
      ['resource segment', (n) => `/api/v1/${domain}/${encodeURIComponent(n)}`],
      ['id segment', (n) => `${list}/${encodeURIComponent(n)}`],
      ['query parameter (list)', (n) => `${list}?${encodeURIComponent(n)}=1`],
      ['query parameter (detail)', (n) => `${list}/1?${encodeURIComponent(n)}=1`],
      ['fields (list)', (n) => `${list}?fields=id,${encodeURIComponent(n)}`],
      ['fields (detail)', (n) => `${list}/1?fields=${encodeURIComponent(n)}`],
      ['order', (n) => `${list}?order=${encodeURIComponent(n)}`],
      ['order desc', (n) => `${list}?order=${encodeURIComponent(n)}%20desc`],
      ['format', (n) => `${list}?format=${encodeURIComponent(n)}`],
      ['query parameter (aggregate)', (n) => `${list}/aggregate?${encodeURIComponent(n)}=1`],
      ['group_by', (n) => `${list}/aggregate?group_by=${encodeURIComponent(n)}`],
      ['measures', (n) => `${list}/aggregate?measures=${encodeURIComponent(n)}:sum`],
      ['aggregate order', (n) => `${list}/aggregate?order=${encodeURIComponent(n)}%20desc`],
      ...(enumFilter ? [[`enum filter ${enumFilter.name}`, (n: string) => `${list}?${enumFilter.name}=${encodeURIComponent(n)}`] as [string, (name: string) => string]] : []),
    ];
  };

  it(`answers each of the ${PROTOTYPE_NAMES.length} names as it answers an unknown name, in every position of all ${RESOURCES.length} resources, without asking the ERP`, async () => {
    // Key check and each resource's read right are cached first: from here on nothing may reach the ERP.
    for (const r of RESOURCES) expect((await stack.get(`/api/v1/${r.resource}?limit=1&fields=id&total=false`)).status).toBe(200);
    const erpCallsBefore = stack.erpCalls.length;
    const cases = RESOURCES.flatMap((r) =>
      positions(r).flatMap(([where, path]) => [UNKNOWN, ...PROTOTYPE_NAMES].map((name) => ({ resource: r.resource, where, name, path: path(name) }))),
    );
    const answers = await inParallel(
      cases.map((c) => async () => {
        // fetch keeps its connections alive (supertest opens one per request): 6,000 requests stay quick.
        const res = await fetch(`${stack.url}${c.path}`, { headers: { Authorization: `Bearer ${stack.keys.valid}` } });
        const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
        return { ...c, status: res.status, code: body.error?.code };
      }),
    );
    const baseline = new Map(answers.filter((a) => a.name === UNKNOWN).map((a) => [`${a.resource} ${a.where}`, a]));
    const differing = answers
      .filter((a) => a.name !== UNKNOWN)
      .filter((a) => {
        const unknown = baseline.get(`${a.resource} ${a.where}`);
        return a.status !== unknown?.status || a.code !== unknown?.code;
      })
      .map((a) => `${a.path}: ${a.status} ${a.code}`);
    expect(differing).toEqual([]);
    // The baseline itself is a client error in the envelope, never a success or a 5xx.
    const notClientErrors = answers.filter((a) => a.status < 400 || a.status >= 500 || typeof a.code !== 'string').map((a) => `${a.path}: ${a.status}`);
    expect(notClientErrors).toEqual([]);
    expect(stack.erpCalls.slice(erpCallsBefore)).toEqual([]);
  }, 120000);
});

describe('MCP: a prototype name wherever a tool takes a name (the official client)', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'prototype-keys', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${stack.keys.valid}` } } }));
  });
  afterAll(() => client?.close());

  /** An object with `name` as an own key, `__proto__` included (a literal `{ [name]: v }` would set the prototype instead). */
  const withKey = (base: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> => {
    const object = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
    Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
    return object;
  };

  type Case = { readonly where: string; readonly tool: (name: string) => string; readonly args: (name: string) => Record<string, unknown> };
  const cases = (): Case[] => {
    const list: Case[] = [
      { where: 'tool name', tool: (n) => n, args: () => ({}) },
      { where: 'describe_resource resource', tool: () => 'describe_resource', args: (n) => ({ resource: n }) },
      { where: 'describe_resource argument name', tool: () => 'describe_resource', args: (n) => withKey({ resource: 'fleet/vehicles' }, n, 'x') },
      { where: 'list_resources argument name', tool: () => 'list_resources', args: (n) => withKey({}, n, 'x') },
      { where: 'get_record resource', tool: () => 'get_record', args: (n) => ({ resource: n, id: 1 }) },
      { where: 'get_record argument name', tool: () => 'get_record', args: (n) => withKey({ resource: 'fleet/vehicles', id: 1 }, n, 'x') },
      { where: 'get_record field', tool: () => 'get_record', args: (n) => ({ resource: 'fleet/vehicles', id: 1, fields: ['id', n] }) },
      { where: 'aggregate resource', tool: () => 'aggregate', args: (n) => ({ resource: n }) },
      { where: 'aggregate argument name', tool: () => 'aggregate', args: (n) => withKey({ resource: 'purchase/orders' }, n, 'x') },
      { where: 'aggregate dimension', tool: () => 'aggregate', args: (n) => ({ resource: 'purchase/orders', group_by: [n] }) },
      { where: 'aggregate measure', tool: () => 'aggregate', args: (n) => ({ resource: 'purchase/orders', measures: [`${n}:sum`] }) },
      { where: 'aggregate filter', tool: () => 'aggregate', args: (n) => ({ resource: 'purchase/orders', filters: withKey({}, n, 'x') }) },
    ];
    for (const tool of mcpTools.tools.filter((t) => t.name.startsWith('query_'))) {
      const domain = tool.name.slice('query_'.length);
      // One resource per tool (one with an enum filter where the domain has one): the routes' own
      // tables are covered for every resource by the HTTP case above, which these calls go through.
      const ofTool = RESOURCES.filter((e) => e.query_tool === tool.name);
      for (const r of [ofTool.find((e) => e.filters.some((f) => f.type === 'enum')) ?? (ofTool[0] as ResourceEntry)]) {
        const resource = r.resource.slice(domain.length + 1);
        const base = { resource, limit: 1, total: false };
        const enumFilter = r.filters.find((f) => f.type === 'enum');
        list.push(
          { where: `${tool.name} ${resource} argument name`, tool: () => tool.name, args: (n) => withKey(base, n, 1) },
          { where: `${tool.name} ${resource} filter name`, tool: () => tool.name, args: (n) => ({ ...base, filters: withKey({}, n, 'x') }) },
          { where: `${tool.name} ${resource} field`, tool: () => tool.name, args: (n) => ({ ...base, fields: ['id', n] }) },
          { where: `${tool.name} ${resource} order`, tool: () => tool.name, args: (n) => ({ ...base, order: n }) },
          ...(enumFilter
            ? [{ where: `${tool.name} ${resource} ${enumFilter.name} value`, tool: () => tool.name, args: (n: string) => ({ ...base, filters: { [enumFilter.name]: n } }) }]
            : []),
        );
      }
      list.push({ where: `${tool.name} resource`, tool: () => tool.name, args: (n) => ({ resource: n }) });
    }
    return list;
  };

  const outcome = async (tool: string, args: Record<string, unknown>) => {
    try {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      if (!result.isError) return 'success';
      const { error } = JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string; status: number } };
      return `tool error ${error.code} ${error.status}`;
    } catch (error) {
      return `protocol error: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  it(`answers each of the ${PROTOTYPE_NAMES.length} names as an unknown name, in every position of every tool, without asking the ERP`, async () => {
    // Key check and read rights cached first (a success for each query tool's resources).
    for (const r of RESOURCES) expect((await stack.get(`/api/v1/${r.resource}?limit=1&fields=id&total=false`)).status).toBe(200);
    const erpCallsBefore = stack.erpCalls.length;
    const all = cases().flatMap((c) => [UNKNOWN, ...PROTOTYPE_NAMES].map((name) => ({ where: c.where, name, tool: c.tool(name), args: c.args(name) })));
    const answers = await inParallel(all.map((c) => async () => ({ ...c, outcome: await outcome(c.tool, c.args) })));
    const baseline = new Map(answers.filter((a) => a.name === UNKNOWN).map((a) => [a.where, a.outcome]));
    const differing = answers
      .filter((a) => a.name !== UNKNOWN && a.outcome !== baseline.get(a.where))
      .map((a) => `${a.where} ${a.name}: ${a.outcome} (unknown: ${baseline.get(a.where)})`);
    expect(differing).toEqual([]);
    // The baseline: a tool error in the 4xx range, never a success, a 5xx or a protocol error.
    const notToolErrors = [...baseline].filter(([, o]) => !/^tool error [a-z_]+ 4\d\d$/.test(o));
    expect(notToolErrors).toEqual([]);
    expect(stack.erpCalls.slice(erpCallsBefore)).toEqual([]);
  }, 120000);
});
