/** @module The export route in the OpenAPI document: one operation, a media type per export format. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, formatList } from '../../emit/export-formats';
import { errorResponses, filterParameter, ref, scopeSentence, SERVER_ERRORS } from '../../emit/openapi/components';
import type { ResourceModel } from '../../model/catalogue-model';
import { LIMITS } from '../../model/catalogue-model';
import { operationId } from '../../model/names';

/** The headers of an export's 200: no ETag (an export is never cached nor answered 304). */
const EXPORT_HEADERS: Record<string, OpenAPIV3_1.HeaderObject | OpenAPIV3_1.ReferenceObject> = {
  'Content-Disposition': {
    description: 'Always: `attachment; filename="<domain>-<resource>-<UTC time>.<extension>"`, the extension of the format.',
    required: true,
    schema: {
      type: 'string',
      pattern: `^attachment; filename="[a-z0-9_]+-[a-z0-9_-]+-[0-9]{8}T[0-9]{6}Z\\.(${EXPORT_FORMAT_NAMES.map((name) => EXPORT_FORMATS[name].extension).join('|')})"$`,
    },
  },
  'Cache-Control': { description: '`no-store`: an export is read from the ERP as it is asked, never cached.', required: true, schema: { type: 'string', pattern: '^no-store$' } },
  'X-Next-Changed-Since': {
    description:
      'With `changed_since` only: the token the next sync starts from (as `changed_since`), valid once the export was read to its end. The export holds the changes up to `CHANGES_SETTLE_MS` before it started.',
    required: false,
    schema: { type: 'string' },
  },
  'X-Request-Id': ref('RequestId', 'headers'),
  'X-Unreadable-Fields': ref('UnreadableFields', 'headers'),
  'RateLimit-Policy': ref('RateLimitPolicy', 'headers'),
  RateLimit: ref('RateLimit', 'headers'),
};

export function exportOperation(resource: ResourceModel): OpenAPIV3_1.OperationObject {
  return {
    operationId: operationId('export', resource.domain, resource.name),
    tags: [resource.domain],
    summary: `Export ${resource.title.toLowerCase()}`,
    description: `Every ${resource.title.toLowerCase()} record the filters match, as one file (${formatList()}), streamed in ascending id order (in \`(write_date, id)\` order with \`changed_since\`), never paged: the list's filters, \`fields\`, \`since_id\` (resume after that id) and \`changed_since\` apply; \`limit\`, \`offset\`, \`order\` and \`total\` do not (400). Past \`EXPORT_MAX_ROWS\` records it is refused (422) before anything is sent. A failure after the first byte cuts the connection before the end, so an incomplete transfer never looks whole.${scopeSentence(resource)}`,
    ...(resource.deprecated ? { deprecated: true } : {}),
    parameters: [
      ref('Format', 'parameters'),
      ref('Fields', 'parameters'),
      {
        name: 'since_id',
        in: 'query',
        required: false,
        description: 'Only records with a greater id: resumes an export after the last id received. Not with `changed_since`.',
        schema: { type: 'integer', minimum: LIMITS.sinceIdMin, maximum: LIMITS.int32Max },
      },
      ref('CsvFormulas', 'parameters'),
      ref('ChangedSince', 'parameters'),
      ...resource.filters.map(filterParameter),
    ],
    responses: {
      '200': {
        description: `Every matching record, in the format asked (\`format\`, else \`Accept\`, else ${EXPORT_FORMAT_NAMES[0]}).`,
        headers: EXPORT_HEADERS,
        content: Object.fromEntries(
          EXPORT_FORMAT_NAMES.map((name) => [EXPORT_FORMATS[name].mediaType, { schema: { type: 'string', description: EXPORT_FORMATS[name].description } }]),
        ),
      },
      ...errorResponses([400, 401, 403, 404, 422, ...SERVER_ERRORS]),
    },
  };
}
