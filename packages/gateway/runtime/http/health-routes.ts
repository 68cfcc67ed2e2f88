/**
 * @module Operational routes outside `/api` (decision D29), no credentials, no data: `/healthz` says
 * the process is alive; `/readyz` says whether the ERP answers (its version) within the ERP timeout
 * (ERP_TIMEOUT_MS), so a hung ERP makes the probe fail as fast as a data request would. With the
 * drift check on, a ready answer lists its state and problems in `drift`, and a check the ERP could
 * not answer is started again (in the background: the probe does not wait for it). A ready answer
 * also holds what the caller's `readiness` adds (app.ts: the change feed's `write_date` costs, by
 * model, once measured): http/ speaks HTTP and knows nothing of them.
 */
import type { Router } from 'express';
import { exactRouter } from './exact-routing';
import type { DriftMonitor } from '../drift/drift-monitor';
import type { ErpClient } from '../erp/erp-client';
import { gatewayErrorOf } from './erp-errors';

/** Where the probes answer: alive, and ready. */
export const HEALTH_PATHS = { alive: '/healthz', ready: '/readyz' } as const;

export function createHealthRouter(erp: ErpClient, timeoutMs: number, drift?: DriftMonitor, readiness: () => Record<string, unknown> = () => ({})): Router {
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
      res.json({
        status: 'ready',
        erp: { version: version.text, transport: transport.name },
        ...(checked && checked.mode !== 'off' ? { drift: checked } : {}),
        ...readiness(),
      });
    } catch (error) {
      const known = gatewayErrorOf(error);
      res.status(503).json({ error: { code: 'unavailable', message: `ERP not ready: ${known?.message ?? 'unexpected error'}` } });
    }
  });
  return router;
}
