/**
 * The `aggregate` MCP tool as an agent uses it, with the official SDK client over streamable HTTP
 * against the gateway on the sandbox ERP: "total amount of purchase orders by state" is one tool call,
 * and its groups are the REST route's for the same question; describe_resource says what each
 * resource can be grouped by and measured with; the route's refusals come back as tool errors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let client: Client;

beforeAll(async () => {
  stack = await startStack({ transport: 'json2' });
  client = new Client({ name: 'mcp-aggregate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${stack.keys.valid}` } } }));
}, 60000);
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'aggregate', arguments: args })) as CallToolResult;

describe('the aggregate MCP tool', () => {
  it('answers "total amount of purchase orders by state" in one call, as the REST route does', async () => {
    const before = stack.erpCalls.length;
    const result = await call({ resource: 'purchase/orders', group_by: ['state'], measures: ['amount_total:sum'] });
    expect(result.isError).toBeFalsy();
    expect(stack.erpCalls.slice(before).filter((c) => c.method === 'formatted_read_group')).toHaveLength(1);
    const rest = await stack.get('/api/v1/purchase/orders/aggregate?group_by=state&measures=amount_total:sum');
    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual({ resource: 'purchase/orders', data: rest.body.data, meta: rest.body.meta });
    const states = (result.structuredContent as { data: { state: string; count: number; 'amount_total:sum': number }[] }).data;
    expect(states.length).toBeGreaterThan(2);
    for (const group of states) expect(typeof group['amount_total:sum']).toBe('number');
  });

  it('takes filters, order and paging as the route does', async () => {
    const args = {
      resource: 'purchase/orders',
      group_by: ['vendor', 'date_order:quarter'],
      measures: ['count', 'amount_total:max'],
      filters: { state: 'purchase' },
      order: 'count desc',
      limit: 3,
      offset: 3,
    };
    const result = await call(args);
    expect(result.isError).toBeFalsy();
    const rest = await stack.get(
      '/api/v1/purchase/orders/aggregate?group_by=vendor,date_order:quarter&measures=count,amount_total:max&state=purchase&order=count%20desc&limit=3&offset=3',
    );
    expect((result.structuredContent as { data: unknown }).data).toEqual(rest.body.data);
  });

  it("describe_resource lists the dimensions and measures; a bad name is the route's own error", async () => {
    const described = (await client.callTool({ name: 'describe_resource', arguments: { resource: 'purchase/orders' } })) as CallToolResult;
    const aggregate = (described.structuredContent as { aggregate: { dimensions: string[]; measures: string[] } }).aggregate;
    expect(aggregate.dimensions).toEqual(expect.arrayContaining(['state', 'vendor', 'date_order:<day|week|month|quarter|year>']));
    expect(aggregate.measures).toEqual(expect.arrayContaining(['count', 'amount_total:sum']));
    expect(aggregate.dimensions).not.toContain('buyer');
    const refused = await call({ resource: 'purchase/orders', group_by: ['buyer'] });
    expect(refused.isError).toBe(true);
    const error = JSON.parse((refused.content[0] as { text: string }).text).error;
    expect([error.code, error.status]).toEqual(['bad_request', 400]);
    expect(error.message).toMatch(/Cannot group by 'buyer'/);
  });
});
