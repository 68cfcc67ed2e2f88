/**
 * @module How a data handler answers once the request is authenticated, allowed and parsed: from the
 * response cache when the resource is cached and holds the answer (fresh, or stale within its
 * window while one background read replaces it), else read from the ERP, kept when the resource is
 * cached, and sent. A resource that is not cached is answered exactly as without a cache. With change
 * detection (cache/change-watch.ts) the answer is keyed by the generations of the models it depends
 * on, and a hit that a check has vouched for since the ERP gave it says so (`Server-Timing`
 * `cache-check`).
 */
import type { Request, Response } from 'express';
import type { Principal } from '../admission/auth';
import { cacheKeyOf, type CachedQuery } from '../cache/cache-key';
import type { CachePolicy } from '../cache/cache-policy';
import type { CachedAnswer } from '../cache/cache-store';
import type { ResponseCache } from '../cache/response-cache';
import { ChangeWatch } from '../cache/change-watch';
import { type AnswerShows, modelsShown } from '../cache/models-shown';
import type { DriftGaps } from '../drift/drift-gaps';
import { ErpStats } from '../erp/erp-client';
import type { MemoryBudget } from '../admission/memory-budget';
import type { ResourceSpec } from '../resource-spec';
import type { Tracing } from '../telemetry/tracing';
import { currentScope, erpStatsOf, setCacheCheckedAt, setCacheOutcome } from '../request/request-context';
import type { CompressionSettings } from '../http/compression';
import { encodeJson, sendEncoded } from '../http/send-json';

/** Reads an answer from the ERP: its body and the headers that belong to it (Deprecation). */
type Read = (stats: ErpStats) => Promise<{ readonly body: unknown; readonly headers: Readonly<Record<string, string>> }>;

/** `shows`: what the answer shows of the resource, when the route knows (its models are watched, models-shown.ts); else every field. */
export type Answerer = (
  req: Request,
  res: Response,
  principal: Principal,
  resource: ResourceSpec,
  asked: CachedQuery,
  gaps: DriftGaps | undefined,
  read: Read,
  shows?: AnswerShows,
) => Promise<void>;

export function createAnswerer(
  /** A background refresh takes a lease of its own on it. */
  budget: MemoryBudget,
  cache: ResponseCache | undefined,
  onRefreshError: (error: unknown) => void,
  compression: CompressionSettings,
  /** OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT): a span per cache lookup and per read that fills an entry. */
  tracing?: Tracing,
): Answerer {
  /**
   * Runs a cache step in a span of its own under the request's (`cache lookup`, `cache fill`), with
   * the outcome as `cache.outcome`. The ERP calls of a fill stay children of the request's span, as
   * every ERP call is: the fill's span says how long the request waited for the entry.
   */
  const traced = async <T>(name: string, resource: ResourceSpec, step: () => Promise<T>, outcome: (result: T) => string): Promise<T> => {
    const span = tracing?.startChild(currentScope()?.span, name, { 'cache.resource': resource.path });
    if (!span) return step();
    try {
      const result = await step();
      span.setAttribute('cache.outcome', outcome(result));
      return result;
    } finally {
      span.end();
    }
  };

  /** Reads a stale entry again, in the background, with a memory lease of its own. */
  const refresh = async (store: ResponseCache, key: string, policy: CachePolicy, read: Read, tags: readonly string[]): Promise<void> => {
    const stats = new ErpStats();
    stats.lease = budget.lease();
    try {
      await store.keep(key, await readAnswer(read, stats), policy, tags);
    } finally {
      stats.lease.release();
    }
  };

  return async (req, res, principal, resource, asked, gaps, read, shows) => {
    const policy = cache?.policyOf(resource);
    if (!cache || !policy?.ttlS) {
      setCacheOutcome(res, 'off');
      const { body, headers } = await read(erpStatsOf(res));
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      const { bytes, etag } = encodeJson(body);
      await sendEncoded(req, res, bytes, etag, compression);
      return;
    }
    // With change detection: the generations of the models the answer depends on (a model not watched
    // yet is looked at first, change-watch.ts).
    const watch = policy.watch && cache.watch?.enabled ? cache.watch : undefined;
    const models = watch ? modelsShown(resource, shows) : [];
    const version = await watch?.versionOf(principal, models, (policy.ttlS + policy.staleS) * 1000);
    const key = cacheKeyOf(cache.namespace, principal.uid, resource, asked, gaps, version?.generation);
    const tags = watch ? ChangeWatch.tagsOf(principal.uid, models) : [];
    const found = await traced(
      'cache lookup',
      resource,
      () => cache.find(key, policy),
      (entry) => entry?.state ?? 'miss',
    );
    if (found) {
      setCacheOutcome(res, found.state);
      // A check that began after the ERP gave this answer found no change: it is vouched for up to then.
      if (version && version.checkedAt >= found.answer.storedAt) setCacheCheckedAt(res, version.checkedAt);
      if (found.state === 'stale') cache.refreshOnce(key, () => refresh(cache, key, policy, read, tags), onRefreshError);
      await sendCached(req, res, cache, found.answer, policy, compression);
      return;
    }
    // Waiting for the read another request is making of this entry is waiting for the ERP; once this
    // request reads for itself, its own calls count.
    const stats = erpStatsOf(res);
    const joined = stats.begin();
    const { answer, kept } = await traced(
      'cache fill',
      resource,
      () =>
        cache
          .fill(
            key,
            policy,
            () => {
              joined();
              return readAnswer(read, stats);
            },
            tags,
          )
          .finally(joined),
      (filled) => (filled.kept ? 'miss' : 'bypass'),
    );
    setCacheOutcome(res, kept ? 'miss' : 'bypass');
    await sendCached(req, res, cache, answer, policy, compression);
  };
}

/** Reads and encodes an answer, ready to send and to keep; `storedAt` is when the ERP answered. */
async function readAnswer(read: Read, stats: ErpStats): Promise<CachedAnswer> {
  const { body, headers } = await read(stats);
  const { bytes, etag } = encodeJson(body);
  return { body: bytes, etag, storedAt: Date.now(), headers };
}

/**
 * Sends a cached resource's answer (fresh from the ERP or from the cache): `private` (it is one
 * account's data: no shared cache may keep it), `max-age` the TTL and `Age` the seconds since the ERP
 * answered, so that a client's own cache counts the same remaining freshness (RFC 9111 §4.2.3:
 * max-age minus Age), and `stale-while-revalidate` the stale window when there is one.
 */
async function sendCached(req: Request, res: Response, cache: ResponseCache, answer: CachedAnswer, policy: CachePolicy, compression: CompressionSettings): Promise<void> {
  const stale = policy.staleS ? `, stale-while-revalidate=${policy.staleS}` : '';
  res.setHeader('Cache-Control', `private, max-age=${policy.ttlS}${stale}`);
  res.setHeader('Age', String(cache.ageOf(answer)));
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  await sendEncoded(req, res, answer.body, answer.etag, compression);
}
