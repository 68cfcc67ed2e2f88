/**
 * OpenTelemetry traces over real HTTP: the gateway process (`node packages/gateway/dist/runtime/main.js`, as in
 * production) exports to a small OTLP/HTTP receiver started here (it decodes the JSON export, as a
 * collector would), with the sandbox ERP behind a recording proxy. The span tree is checked: a server span per request that continues the client's trace, a
 * client span per ERP call under it with model, method, transport and outcome, the ERP receiving each
 * call's own `traceparent`, and no key or filter value anywhere in a span.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startGatewayProcess, type GatewayProcess } from '../reliability/support/gateway-process';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startStack, type Stack } from '../support/stack';

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly boolValue?: boolean;
}
interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly status?: { readonly code?: number };
  readonly service: string | undefined;
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes: { key: string; value: OtlpValue }[] })[] }[];
  }[];
}

const SERVER = 2;
const CLIENT = 3;
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_PARENT = '00f067aa0ba902b7';

function flatten(attributes: { key: string; value: OtlpValue }[]): Record<string, string | number | boolean | undefined> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue))]));
}

/** An OTLP/HTTP receiver: POST /v1/traces with the JSON encoding, spans kept in arrival order. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; contentTypes: string[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers['content-type']));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans) {
        const service = flatten(resourceSpans.resource.attributes)['service.name'] as string | undefined;
        for (const scope of resourceSpans.scopeSpans) for (const span of scope.spans) spans.push({ ...span, attributes: flatten(span.attributes), service });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The spans of the request that answered `requestId`, once the gateway has sent them (batches leave every second). */
async function requestSpans(spans: readonly ReceivedSpan[], requestId: string): Promise<{ server: ReceivedSpan; children: ReceivedSpan[] }> {
  const serverSpan = () => spans.find((span) => span.kind === SERVER && span.attributes['odg.request_id'] === requestId);
  for (let i = 0; i < 100 && !serverSpan(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const server = serverSpan();
  if (!server) throw new Error(`no server span for ${requestId}`);
  return { server, children: spans.filter((span) => span.parentSpanId === server.spanId) };
}

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let stack: Stack;
  let proxy: FaultProxy;
  let gateway: GatewayProcess;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // The sandbox and its keys; the gateway under test is the process, in front of a recording proxy.
    stack = await startStack({ transport: 'json2' });
    proxy = await startFaultProxy(stack.sandbox.url);
    gateway = await startGatewayProcess({
      ERP_URL: proxy.url,
      ERP_DATABASE: stack.sandbox.database,
      ERP_TRANSPORT: 'json2',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'gateway-under-test',
    });
  });
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await proxy?.close();
    await stack?.close();
    await receiver?.close();
  });

  const spansOf = (requestId: string) => requestSpans(receiver.spans, requestId);

  it('continues the client trace with a server span, and an ERP client span per call under it, each sent to the ERP', async () => {
    proxy.resetCounts();
    const res = await request(gateway.url)
      .get('/api/v1/fleet/trips?limit=2&date_after=2020-01-02')
      .set('Authorization', `Bearer ${stack.keys.valid}`)
      .set('X-Request-Id', 'traced-1')
      .set('traceparent', `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01`);
    expect(res.status).toBe(200);
    const { server, children } = await spansOf('traced-1');
    expect(server).toMatchObject({
      traceId: CLIENT_TRACE,
      parentSpanId: CLIENT_PARENT,
      name: 'GET /api/v1/fleet/trips',
      service: 'gateway-under-test',
      attributes: { 'http.request.method': 'GET', 'http.route': '/api/v1/fleet/trips', 'http.response.status_code': 200, 'odg.cache': 'off' },
    });
    expect(receiver.contentTypes[0]).toMatch(/^application\/json/);
    // One client span per ERP call the gateway sent, named after model and method, under the request.
    // (The first request also asks GET /web/version to choose the transport: no model call, no span.)
    const calls = proxy.requestHeaders.filter((_headers, i) => proxy.requests[i]?.startsWith('POST /json/2/'));
    expect(children.length).toBe(calls.length);
    expect(server.attributes['odg.erp_calls']).toBe(children.length);
    for (const span of children) {
      expect(span).toMatchObject({ traceId: CLIENT_TRACE, kind: CLIENT, attributes: { 'erp.transport': 'json2', 'erp.outcome': 'ok' } });
      expect(span.name).toBe(`${span.attributes['erp.model']} ${span.attributes['erp.method']}`);
    }
    expect(children.map((span) => span.attributes['erp.method']).sort()).toEqual(expect.arrayContaining(['authenticate', 'has_group', 'search_read']));
    // Each ERP call carried its own span's traceparent: the ERP (or a proxy before it) can join the trace.
    const sent = calls.map((headers) => String(headers['traceparent']));
    expect(sent.sort()).toEqual(children.map((span) => `00-${CLIENT_TRACE}-${span.spanId}-01`).sort());
    // Nothing of the key or the filter values is in any span.
    const text = JSON.stringify(receiver.spans);
    expect([text.includes(stack.keys.valid), text.includes('2020-01-02')]).toEqual([false, false]);
  });

  it('starts a trace of its own for a request without traceparent, and marks an ERP failure on its span', async () => {
    proxy.mode = { kind: 'html' };
    let res: request.Response;
    try {
      res = await request(gateway.url).get('/api/v1/fleet/vehicles/1').set('Authorization', `Bearer ${stack.keys.valid}`).set('X-Request-Id', 'traced-2');
    } finally {
      proxy.mode = { kind: 'forward' };
    }
    expect(res.status).toBe(502);
    const { server, children } = await spansOf('traced-2');
    expect(server.parentSpanId ?? '').toBe('');
    expect(server.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(server.traceId).not.toBe(CLIENT_TRACE);
    expect(server).toMatchObject({ name: 'GET /api/v1/fleet/vehicles/{id}', attributes: { 'http.response.status_code': 502 }, status: { code: 2 } });
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((span) => span.attributes['erp.outcome'] === 'unavailable' && span.status?.code === 2)).toBe(true);
  });

  it('names a request no route serves after its method alone', async () => {
    await request(gateway.url).get('/nowhere/secret').set('X-Request-Id', 'traced-3');
    const { server, children } = await spansOf('traced-3');
    expect([server.name, server.attributes['http.route'], children.length]).toEqual(['GET', '(no route)', 0]);
    expect(JSON.stringify(server)).not.toContain('secret');
  });
});

describe('OpenTelemetry traces with the response cache (CACHE_DEFAULT_TTL_S)', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let stack: Stack;
  let gateway: GatewayProcess;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startStack({ transport: 'json2' });
    gateway = await startGatewayProcess({
      ERP_URL: stack.sandbox.url,
      ERP_DATABASE: stack.sandbox.database,
      ERP_TRANSPORT: 'json2',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      CACHE_DEFAULT_TTL_S: '60',
    });
  });
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await stack?.close();
    await receiver?.close();
  });

  const childrenOf = async (requestId: string) => (await requestSpans(receiver.spans, requestId)).children;
  const get = (id: string) =>
    request(gateway.url).get('/api/v1/fleet/trips?limit=2&date_after=2020-01-02').set('Authorization', `Bearer ${stack.keys.valid}`).set('X-Request-Id', id);

  it('gives each cache step a span under the request: a lookup that misses and a fill beside the ERP calls, then a lookup that hits and no ERP call', async () => {
    expect((await get('cached-1')).status).toBe(200);
    expect((await get('cached-2')).status).toBe(200);
    const cacheSteps = (spans: ReceivedSpan[]) =>
      spans.filter((span) => span.name.startsWith('cache ')).map((span) => [span.name, span.attributes['cache.outcome'], span.attributes['cache.resource']]);
    const first = await childrenOf('cached-1');
    expect(cacheSteps(first)).toEqual([
      ['cache lookup', 'miss', 'fleet/trips'],
      ['cache fill', 'miss', 'fleet/trips'],
    ]);
    expect(first.filter((span) => span.kind === CLIENT).map((span) => span.attributes['erp.method'])).toContain('search_read');
    const second = await childrenOf('cached-2');
    expect(cacheSteps(second)).toEqual([['cache lookup', 'hit', 'fleet/trips']]);
    expect(second.filter((span) => span.kind === CLIENT)).toEqual([]);
    expect(JSON.stringify(receiver.spans)).not.toContain('2020-01-02');
  });
});
