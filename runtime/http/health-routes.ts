/**
 * @module Operational routes outside `/api` (decision D29), no credentials, no data: `/healthz` says
 * the process is alive; `/readyz` says whether the ERP answers (its version), within the timeout.
 */
import { Router } from 'express';
import type { ErpClient } from '../erp/erp-client';
import { gatewayErrorOf } from './erp-errors';

export function createHealthRouter(erp: ErpClient): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      const { transport, version } = await erp.connect();
      await transport.version(AbortSignal.timeout(5000));
      res.json({ status: 'ready', erp: { version: version.text, transport: transport.name } });
    } catch (error) {
      const known = gatewayErrorOf(error);
      res.status(503).json({ error: { code: 'unavailable', message: `ERP not ready: ${known?.message ?? 'unexpected error'}` } });
    }
  });
  return router;
}
