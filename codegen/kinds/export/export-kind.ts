/**
 * @module The export route, `GET /api/v1/<domain>/<resource>/export`: every matching record as a file
 * in one of the export formats (the runtime's data-routes/kinds/export/ answers it). No MCP tool: an
 * export is a file for a person or a loader; a model reads pages.
 */
import { exportQuerySchema } from '../../emit/query-schema';
import type { KindEmitter } from '../kind-emitter';
import { exportOperation } from './export-operation';

export const EXPORT: KindEmitter<'export'> = {
  path: '/export',
  label: 'Export',
  querySchema: exportQuerySchema,
  operation: exportOperation,
  // The ids alone, as NDJSON: the page shows the first 60,000 characters and reads no further.
  tryPath: (resource) => `/api/v1/${resource.path}/export?format=ndjson&fields=id`,
  mcp: {},
};
