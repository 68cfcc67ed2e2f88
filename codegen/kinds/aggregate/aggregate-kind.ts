/**
 * @module The aggregate route, `GET /api/v1/<domain>/<resource>/aggregate`: counts and measures by
 * group (the runtime's data-routes/kinds/aggregate/ answers it). Every resource has it unless its
 * catalogue entry says `aggregate: false`.
 */
import type { KindEmitter } from '../kind-emitter';
import { aggregateOperation, dimensionSpellings } from './aggregate-operation';
import { aggregateQuerySchema } from './aggregate-query-schema';
import { aggregateTool } from './aggregate-tool';

export const AGGREGATE: KindEmitter<'aggregate'> = {
  path: '/aggregate',
  label: 'Aggregate',
  applies: (resource) => resource.aggregate !== undefined,
  querySchema: aggregateQuerySchema,
  cardRows: (resource) => [
    ['Group by', (resource.aggregate?.dimensions ?? []).map((d) => (d.kind === 'date' || d.kind === 'date-time' ? `${d.name}:<day…year>` : d.name))],
    ['Measures', ['count', ...(resource.aggregate?.measures ?? []).map((m) => `${m.name}:${m.aggregators.join('|')}`)]],
  ],
  operation: aggregateOperation,
  tryPath: (resource) => {
    const first = resource.aggregate?.dimensions.find((d) => !d.personal);
    return `/api/v1/${resource.path}/aggregate${first ? `?group_by=${encodeURIComponent((dimensionSpellings(first)[2] ?? dimensionSpellings(first)[0]) as string)}` : ''}`;
  },
  mcp: { catalogueTools: (model) => [aggregateTool(model)] },
};
