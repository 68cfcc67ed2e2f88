/**
 * @module The ERP client's observer (erp/erp-observer.ts): each call is counted in the metrics, gets a
 * client span under its request's span, and carries its request's id and trace context on the wire
 * (`X-Request-Id`, `traceparent`, `tracestate`), so an ERP or a proxy in front of it that logs them
 * ties its lines to the gateway's. A call made outside a request (the drift check) carries none.
 */
import type { TransportName } from '../config';
import type { ErpCallName, ErpObserver, SentErpCall } from '../erp/erp-observer';
import { currentScope } from '../request/request-context';
import { traceparentOf } from '../request/request-id';
import type { GatewayMetrics } from './metrics';
import type { Tracing } from './tracing';

export function erpTelemetry(metrics: GatewayMetrics | undefined, tracing: Tracing | undefined): ErpObserver {
  return {
    sending(name: ErpCallName, transport: TransportName): SentErpCall {
      const scope = currentScope();
      const span = tracing?.startChild(scope?.span, `${name.model} ${name.method}`, { 'erp.model': name.model, 'erp.method': name.method, 'erp.transport': transport }, true);
      let headers: Record<string, string> | undefined;
      if (scope) {
        headers = { 'X-Request-Id': scope.id };
        if (span) {
          const context = span.spanContext();
          headers['traceparent'] = `00-${context.traceId}-${context.spanId}-0${context.traceFlags & 1}`;
          const state = context.traceState?.serialize();
          if (state) headers['tracestate'] = state;
        } else if (scope.trace) {
          // Not tracing: the client's context goes on unchanged, as an intermediary that adds no span passes it.
          headers['traceparent'] = traceparentOf(scope.trace);
          if (scope.trace.state) headers['tracestate'] = scope.trace.state;
        }
      }
      return {
        headers,
        done(outcome, seconds) {
          metrics?.erpCallDone(transport, name.model, name.method, outcome, seconds);
          if (span) tracing?.endErpCall(span, outcome);
        },
      };
    },
    coalesced: () => metrics?.erpCallCoalesced(),
    queueFull: () => metrics?.erpQueueWasFull(),
    connected: (transport, version) => metrics?.erpConnected(transport, version),
  };
}
