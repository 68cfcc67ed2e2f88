/**
 * @module What a kind of data route is to the guard (guard.ts): for each resource, how its request is
 * read, what it costs, and how it is answered. The guard takes steps 8 to 15 of a data request (the
 * table at the top of guard.ts) the same way for every kind; a kind brings step 12, reading its
 * request, and the answer of step 14. The kinds are registered in kinds/data-kinds.ts against their
 * declaration (route-kinds.ts).
 */
import type { Request, Response } from 'express';
import type { Principal } from '../admission/auth';
import type { ChangeFeed } from '../changes/change-feed';
import type { DriftGaps } from '../drift/drift-gaps';
import type { Exporter } from '../export/exporter';
import type { CompressionSettings } from '../http/compression';
import type { RelatedResourceOf } from '../query/parse-expand';
import type { QueryParser } from '../query/parse-query';
import type { ResourceReader } from '../resource-reader';
import type { ResourceSpec } from '../resource-spec';
import type { RequestCost } from '../route-kinds';
import type { Answerer } from './cached-answers';

/** A request the guard has let in: authenticated, leased its memory, allowed to read the resource's model. */
export interface Admitted {
  readonly principal: Principal;
  readonly resource: ResourceSpec;
  readonly req: Request;
  readonly res: Response;
  /**
   * The drift the resource is served around now (undefined without a drift monitor). Asked anew at
   * each use: a request running alongside may have taught the gateway some since.
   */
  gaps(): DriftGaps | undefined;
}

/**
 * A kind's route for one resource. `Asked` is what the kind reads of the request (its path parameters
 * and parsed query). Methods, not function properties: a route of any `Asked` is a `KindRoute`.
 */
export interface KindRoute<Asked> {
  /** Reads the request: its path and query, refused here (400, 404, 422) before anything is charged. */
  read(call: Admitted): Asked;
  /** What the request is charged up front, before the ERP is asked (RATE_LIMIT_COSTS). */
  costOf(asked: Asked): RequestCost;
  /** Answers: from the response cache or the ERP, or streamed (exports). */
  answer(asked: Asked, call: Admitted): Promise<void>;
}

/** What the kinds answer with; built once by createResourceHandlers (guard.ts). */
export interface KindDependencies {
  readonly reader: ResourceReader;
  /** The resource's query parser: its schemas compiled once, shared by its kinds. */
  readonly parserOf: (resource: ResourceSpec) => QueryParser;
  /** The other end of a relation (`expand`), and its parser. */
  readonly relatedOf: RelatedResourceOf;
  /** Answers a JSON body through the response cache when the resource is cached (cached-answers.ts). */
  readonly answer: Answerer;
  readonly compression: CompressionSettings;
  readonly exporter: Exporter;
  readonly changes: ChangeFeed;
}

/**
 * A kind of data route: given what it answers with, its route for each resource, made once as the
 * route is registered (a query schema is compiled then, at start-up, not at the first request).
 */
export type DataKind = (deps: KindDependencies) => (resource: ResourceSpec) => KindRoute<unknown>;
