/**
 * @module The key check of a request, counted against the failure limits: shared by the data routes
 * and the MCP endpoint, so that a key gets the same 401, 403 and 429 on both.
 */
import type { Request, Response } from 'express';
import type { Authenticator, Principal } from './auth';
import { GatewayError } from '../errors';
import type { AuthFailureLimit, SettleCheck } from './auth-failure-limit';
import { erpStatsOf } from '../request/request-context';

export async function authenticateRequest(auth: Authenticator, failures: AuthFailureLimit, req: Request, res: Response): Promise<Principal> {
  const address = req.ip ?? 'unknown';
  let askedErp = false;
  const begin = async (): Promise<SettleCheck> => {
    const settle = await failures.begin(address);
    askedErp = true;
    return settle;
  };
  try {
    const principal = await auth.authenticate(req.headers.authorization, erpStatsOf(res), begin);
    res.locals['keyId'] = principal.keyId;
    return principal;
  } catch (error) {
    // A refusal the ERP gave was counted when it settled; one without the ERP is counted here.
    if (!askedErp && error instanceof GatewayError && error.code === 'unauthorized') failures.recordFailure(address);
    throw error;
  }
}
