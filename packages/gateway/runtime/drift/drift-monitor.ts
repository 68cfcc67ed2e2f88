/**
 * @module The drift check as the running gateway uses it (DRIFT_CHECK): started in the background
 * once the gateway listens, so requests are served normally while it runs. When the ERP cannot be
 * asked, the next `/readyz` starts it again (at most once per RETRY_INTERVAL_MS). `warn` logs each
 * problem once, lists them on `/readyz` and serves around them (drift-gaps.ts); `fail` hands them to
 * the caller, which refuses to run; `off` never asks the ERP.
 *
 * In `warn` mode the ERP's own errors teach it too (learn-drift.ts): without ERP_CHECK_KEY that is
 * the only way it learns, and with one it catches drift that appears after the start-up check.
 */
import type { Logger } from '../log';
import type { ErpClient } from '../erp/erp-client';
import type { ResourceSpec } from '../resource-spec';
import { driftGapsOf, NO_GAPS, type DriftGaps } from './drift-gaps';
import { qualifiedField, type DriftProblem } from './drift-problem';
import { missingInErp, problemsOf } from './learn-drift';
import { runDriftCheck, type DriftCheckErrorCode } from './run-drift-check';

type DriftMode = 'warn' | 'fail' | 'off';

const RETRY_INTERVAL_MS = 5000;

export interface DriftStatus {
  readonly mode: DriftMode;
  /**
   * `pending`: not finished yet; `skipped`: off; `learning`: no ERP_CHECK_KEY, so drift is learned
   * from the ERP's errors only; `checked`; `error`: the ERP could not be asked.
   */
  readonly state: 'pending' | 'skipped' | 'learning' | 'checked' | 'error';
  readonly problems: readonly DriftProblem[];
  readonly error?: { readonly code: DriftCheckErrorCode; readonly message: string };
}

export interface DriftMonitorOptions {
  readonly mode: DriftMode;
  readonly checkKey: string | undefined;
  readonly erp: ErpClient;
  readonly log: Logger;
  readonly resources: readonly ResourceSpec[];
  /** Least time between two attempts when the ERP could not be asked (default RETRY_INTERVAL_MS). */
  readonly retryIntervalMs?: number;
}

export class DriftMonitor {
  private current: DriftStatus;
  private running: Promise<void> | undefined;
  private lastAttempt = 0;
  private onFail: ((problems: readonly DriftProblem[]) => void) | undefined;
  private readonly gaps = new Map<ResourceSpec, DriftGaps>();
  private readonly flagged = new Set<ResourceSpec>();
  /** Problems learned from the ERP's errors, and the facts already seen (`model` or `model.field`). */
  private learned: readonly DriftProblem[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly options: DriftMonitorOptions) {
    this.current = { mode: options.mode, state: options.mode === 'off' ? 'skipped' : 'pending', problems: [] };
  }

  /** Runs the check in the background; in `fail` mode `onFail` receives the problems found. */
  start(onFail?: (problems: readonly DriftProblem[]) => void): void {
    const { mode, checkKey, log } = this.options;
    if (mode === 'off') return;
    if (!checkKey) {
      this.current = { mode, state: mode === 'warn' ? 'learning' : 'skipped', problems: [] };
      const instead = mode === 'warn' ? "; drift is learned from the ERP's errors instead" : '';
      log.warn({ driftCheck: mode }, `catalogue drift check skipped: ERP_CHECK_KEY is not set${instead}`);
      return;
    }
    this.onFail = onFail;
    this.attempt();
  }

  /** After a failed attempt, tries again (called by `/readyz`); resolves when that attempt is over. */
  async retry(): Promise<void> {
    if (this.current.state === 'error' && !this.running && Date.now() - this.lastAttempt >= (this.options.retryIntervalMs ?? RETRY_INTERVAL_MS)) this.attempt();
    await this.running;
  }

  status(): DriftStatus {
    return this.learned.length ? { ...this.current, problems: this.problems() } : this.current;
  }

  /**
   * Records what an ERP error says the ERP lacks (`warn` mode only). True when that changes how some
   * resource is served: the caller may then ask again, and gets the warn-mode answer (`null` fields,
   * a 503 naming what is missing) instead of passing the ERP's failure on as 502.
   */
  learnFrom(error: unknown): boolean {
    if (this.options.mode !== 'warn') return false;
    const missing = missingInErp(error);
    if (!missing) return false;
    const fact = missing.kind === 'missing_model' ? missing.model : `${missing.model}.${missing.field}`;
    if (this.seen.has(fact)) return false;
    this.seen.add(fact);
    const problems = problemsOf(missing, this.options.resources);
    if (!problems.length) return false;
    this.learned = [...this.learned, ...problems];
    this.gaps.clear();
    // One line says it all; the per-resource "answered as null" line would repeat it.
    for (const resource of this.options.resources) if (problems.some((p) => p.resource === resource.path)) this.flagged.add(resource);
    this.options.log.warn(
      { kind: missing.kind, field: fact, resources: problems.map((p) => ({ resource: p.resource, uses: p.uses })) },
      `catalogue drift learned from the ERP's answer: ${problems[0]?.detail}; fields that need it are answered as null, filters and sort keys on it (and a resource whose model or scope needs it) answer 503`,
    );
    return true;
  }

  /** How to serve `resource` given the drift found so far (nothing while the check has not finished). */
  gapsOf(resource: ResourceSpec): DriftGaps {
    if (this.options.mode !== 'warn' || (this.current.problems.length === 0 && this.learned.length === 0)) return NO_GAPS;
    let gaps = this.gaps.get(resource);
    if (!gaps) {
      gaps = driftGapsOf(resource, this.problems());
      this.gaps.set(resource, gaps);
    }
    if (gaps.apiFields.size && !this.flagged.has(resource)) {
      this.flagged.add(resource);
      this.options.log.warn({ resource: resource.path, fields: [...gaps.apiFields] }, 'catalogue drift: fields missing in the ERP are answered as null');
    }
    return gaps;
  }

  private problems(): readonly DriftProblem[] {
    return this.learned.length ? [...this.current.problems, ...this.learned] : this.current.problems;
  }

  private attempt(): void {
    const { mode, checkKey, erp, log, resources } = this.options;
    this.lastAttempt = Date.now();
    this.running = runDriftCheck(erp, checkKey, resources).then((result) => {
      this.running = undefined;
      if (!result.ok) {
        this.current = { mode, state: 'error', problems: [], error: { code: result.code, message: result.message } };
        log.error({ driftCheck: mode, code: result.code }, `catalogue drift check could not run: ${result.message}`);
        return;
      }
      this.current = { mode, state: 'checked', problems: result.problems };
      this.gaps.clear();
      const level = mode === 'fail' ? 'error' : 'warn';
      for (const p of result.problems) log[level]({ resource: p.resource, kind: p.kind, field: qualifiedField(p), uses: p.uses }, `catalogue drift: ${p.detail}`);
      log.info({ driftCheck: mode, problems: result.problems.length, models: result.models }, 'catalogue drift check done');
      if (mode === 'fail' && result.problems.length) this.onFail?.(result.problems);
    });
  }
}
