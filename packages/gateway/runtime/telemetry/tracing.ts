/**
 * @module OpenTelemetry traces, with the official SDK, only when OTEL_EXPORTER_OTLP_ENDPOINT is set: a
 * server span per request (`GET /api/v1/fleet/trips/{id}`), and under it a client span per ERP call
 * named after the model and method, with the transport and the outcome. Spans never carry a key, a
 * record id, a filter value or a raw path: only route templates, models, methods and outcomes.
 *
 * A request that comes with a valid `traceparent` continues the client's trace (its sampled flag is
 * honoured); each ERP call sends the `traceparent` of its own span. Spans leave in batches over
 * OTLP/HTTP (JSON) to `<endpoint>/v1/traces`.
 *
 * The SDK is loaded only when tracing is on (`startTracing` requires it): with it off, no
 * OpenTelemetry module is in memory and no request does any tracing work. Parents are passed
 * explicitly (the request's span is in its scope) rather than through a global context manager, so
 * nothing is registered process-wide.
 */
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { ErpCallOutcome } from '../erp/erp-observer';
import type { TraceContext } from '../request/request-context';
import { NO_ROUTE } from '../request/route-template';

export interface TracingConfig {
  /** OTLP base URL (OTEL_EXPORTER_OTLP_ENDPOINT): spans go to `<endpoint>/v1/traces`. */
  readonly endpoint: string;
  readonly serviceName: string;
}

export interface Tracing {
  /** The server span of a request, continuing the client's trace when it sent one. */
  startRequest(method: string, parent: TraceContext | undefined): Span;
  /** Names the request's span after its route template and records how it ended. */
  endRequest(span: Span, method: string, route: string, status: number, attributes: Attributes): void;
  /**
   * A child span of `parent` (a request's span: `currentScope()?.span`), or a root span outside any
   * request; `client` for a call to another service. The ERP calls use it; so can a response cache.
   */
  startChild(parent: Span | undefined, name: string, attributes: Attributes, client?: boolean): Span;
  endErpCall(span: Span, outcome: ErpCallOutcome): void;
  /** Sends the spans still waiting in the batch, then stops (shutdown). */
  shutdown(): Promise<void>;
}

export function startTracing(config: TracingConfig): Tracing {
  // require, not import(): the gateway is CommonJS, and these packages are CommonJS too.
  const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const { TracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const exporter = new OTLPTraceExporter({ url: `${config.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
  });
  const tracer: Tracer = provider.getTracer('ops-data-gateway');
  const { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, createTraceState } = api;

  return {
    startRequest(method, parent) {
      const context = parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.parentId,
            traceFlags: Number.parseInt(parent.flags, 16),
            isRemote: true,
            ...(parent.state ? { traceState: createTraceState(parent.state) } : {}),
          })
        : ROOT_CONTEXT;
      return tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, context);
    },
    endRequest(span, method, route, status, attributes) {
      // Semantic conventions: `{method} {route}`, or the method alone when no route matched.
      span.updateName(route === NO_ROUTE ? method : `${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status, ...attributes });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    startChild(parent, name, attributes, client = false) {
      const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
      return tracer.startSpan(name, { kind: client ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, context);
    },
    endErpCall(span, outcome) {
      span.setAttribute('erp.outcome', outcome);
      if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      span.end();
    },
    shutdown: () => provider.shutdown(),
  };
}
