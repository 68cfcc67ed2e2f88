/**
 * @module Operational routes outside `/api` (decision D29), no credentials, no data: `/healthz` says
 * the process is alive; `/readyz` says whether the ERP answers (its version) within the ERP timeout
 * (ERP_TIMEOUT_MS), so a hung ERP makes the probe fail as fast as a data request would. With the
 * drift check on, a ready answer lists its state and problems in `drift`, and a check the ERP could
 * not answer is started again (in the background: the probe does not wait for it). Once the change
 * feed has measured what a `write_date` check costs on a model, `changes.write_date` says it, by
 * model (changes/write-date-cost.ts).
 */
import type { Router } from 'express';
import { exactRouter } from './exact-routing';
import type { DriftMonitor } from '../drift/drift-monitor';
import type { ErpClient } from '../erp/erp-client';
import { gatewayErrorOf } from './erp-errors';
import type { WriteDateCost, WriteDateCosts } from '../changes/write-date-cost';

/** Where the probes answer: alive, and ready. */
export const HEALTH_PATHS = { alive: '/healthz', ready: '/readyz' } as const;

export function createHealthRouter(erp: ErpClient, timeoutMs: number, drift?: DriftMonitor, writeDateCosts?: WriteDateCosts): Router {
  const router = exactRouter();
  router.get(HEALTH_PATHS.alive, (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get(HEALTH_PATHS.ready, async (_req, res) => {
    try {
      const { transport, version } = await erp.connect();
      await transport.version(AbortSignal.timeout(timeoutMs));
      const checked = drift?.status();
      if (checked?.state === 'error') void drift?.retry();
      const costs = writeDateCosts?.snapshot() ?? [];
      res.json({
        status: 'ready',
        erp: { version: version.text, transport: transport.name },
        ...(checked && checked.mode !== 'off' ? { drift: checked } : {}),
        ...(costs.length ? { changes: { write_date: Object.fromEntries(costs.map((cost) => [cost.model, writeDateReport(cost)])) } } : {}),
      });
    } catch (error) {
      const known = gatewayErrorOf(error);
      res.status(503).json({ error: { code: 'unavailable', message: `ERP not ready: ${known?.message ?? 'unexpected error'}` } });
    }
  });
  return router;
}

/** A model's `write_date` cost as /readyz shows it. */
function writeDateReport(cost: WriteDateCost) {
  return {
    case: cost.case,
    source: cost.source,
    ...(cost.checkMs === undefined ? {} : { check_ms: cost.checkMs, keyed_ms: cost.keyedMs, max_id: cost.maxId, measured_at: cost.measuredAt }),
  };
}
