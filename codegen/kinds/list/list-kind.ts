/**
 * @module The list route, `GET /api/v1/<domain>/<resource>`: a page of records, an export or a page of
 * the change feed (the runtime's data-routes/kinds/list/ answers it).
 */
import { listQuerySchema } from '../../emit/query-schema';
import type { KindEmitter } from '../kind-emitter';
import { listOperation } from './list-operation';
import { queryTool } from './query-tool';

export const LIST: KindEmitter<'list'> = {
  path: '',
  label: 'List',
  querySchema: listQuerySchema,
  operation: listOperation,
  tryPath: (resource) => `/api/v1/${resource.path}?limit=2`,
  mcp: { domainTools: (domain) => [queryTool(domain)] },
};
