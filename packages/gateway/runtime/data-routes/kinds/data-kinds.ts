/**
 * @module Every kind of data route the runtime serves, registered against its declaration
 * (route-kinds.ts): a kind declared there and missing here, or the other way round, fails the type
 * check. Each kind is a folder of its own; guard.ts puts each behind the guard.
 */
import type { RouteKind } from '../../route-kinds';
import type { DataKind } from '../kind-route';
import { aggregateKind } from './aggregate/aggregate-route';
import { detailKind } from './detail/detail-route';
import { exportKind } from './export/export-route';
import { listKind } from './list/list-route';

export const DATA_KINDS: { readonly [K in RouteKind]: DataKind } = {
  list: listKind,
  export: exportKind,
  aggregate: aggregateKind,
  detail: detailKind,
};
