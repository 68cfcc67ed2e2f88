/**
 * @module The detail route, `GET /api/v1/<domain>/<resource>/{id}`: one record (the runtime's
 * data-routes/kinds/detail/ answers it).
 */
import { detailQuerySchema } from '../../emit/query-schema';
import type { KindEmitter } from '../kind-emitter';
import { detailOperation } from './detail-operation';
import { recordTool } from './record-tool';

export const DETAIL: KindEmitter<'detail'> = {
  path: '/:id',
  label: 'Detail',
  querySchema: detailQuerySchema,
  operation: detailOperation,
  mcp: { catalogueTools: (model) => [recordTool(model)] },
};
