/** @module The list route in the OpenAPI document. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { DATA_HEADERS, errorResponses, filterParameter, ref, scopeSentence, SERVER_ERRORS } from '../../emit/openapi/components';
import type { ResourceModel } from '../../model/catalogue-model';
import { EXPORT_FORMAT_DOCS, EXPORT_FORMAT_NAMES } from '../../model/export-formats';
import { operationId, recordTypeName } from '../../model/names';

/** The list route's operation: a JSON page, or an export (CSV, NDJSON) of every matching record. */
export function listOperation(resource: ResourceModel): OpenAPIV3_1.OperationObject {
  const record = recordTypeName(resource.domain, resource.name);
  return {
    operationId: operationId('list', resource.domain, resource.name),
    tags: [resource.domain],
    summary: `List ${resource.title.toLowerCase()}`,
    description: `${resource.description}\n\nDefault order: \`${resource.defaultOrderText}\`.${scopeSentence(resource)}`,
    ...(resource.deprecated ? { deprecated: true } : {}),
    parameters: [
      ...['Limit', 'Offset', 'SinceId', 'Total'].map((name) => ref(name, 'parameters')),
      {
        name: 'order',
        in: 'query',
        required: false,
        description: `Sort: \`field\`, \`field asc\` or \`field desc\`, several keys comma-separated. Sortable fields: ${
          Object.keys(resource.sortable)
            .map((f) => `\`${f}\``)
            .join(', ') || 'none'
        }. \`id\` is always appended as the last key. Not with \`since_id\`. Unset values: a number that is not set is read as 0 and sorts as 0 (first ascending, last descending, beside the zeros; before negative numbers ascending); a date or text that is not set (null) sorts after every value ascending and before every value descending. Ties are broken by \`id\`, except on date-times: the ERP keeps fractions of a second that answers round off, so records showing the same date-time are ordered by that hidden fraction first.`,
        schema: { type: 'string', maxLength: 256 },
      },
      ref('Fields', 'parameters'),
      ref('Format', 'parameters'),
      ref('CsvFormulas', 'parameters'),
      ref('CsvDialect', 'parameters'),
      ref('ChangedSince', 'parameters'),
      ...resource.filters.map(filterParameter),
      ref('IfNoneMatch', 'parameters'),
    ],
    responses: {
      '200': {
        description: `A page of records (JSON, with an \`ETag\`), or an export of every matching record (${EXPORT_FORMAT_NAMES.join(', ')}, asked by \`Accept\` or \`format\`), streamed in ascending id order (in \`(write_date, id)\` order with \`changed_since\`), with \`Content-Disposition: attachment; filename="<domain>-<resource>-<UTC time>.<${EXPORT_FORMAT_NAMES.join('|')}>"\`, \`X-Total-Count\` and no ETag.`,
        // An export's Content-Disposition is described with its media types: a response header here would be promised on the JSON page too.
        // Likewise its ETag: a JSON page always has one, an export never, so the header is optional here.
        headers: { ...DATA_HEADERS, ETag: ref('PageETag', 'headers'), 'X-Total-Count': ref('TotalCount', 'headers') },
        content: {
          ...Object.fromEntries(
            Object.values(EXPORT_FORMAT_DOCS).map(({ mediaType, description, binary }) => [
              mediaType,
              { schema: { type: 'string', ...(binary ? { format: 'binary' } : {}), description } },
            ]),
          ),
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['data', 'meta'],
              properties: { data: { type: 'array', items: ref(record) }, meta: ref('ListMeta') },
            },
          },
        },
      },
      '304': ref('NotModified', 'responses'),
      ...errorResponses([400, 401, 403, 404, 422, ...SERVER_ERRORS]),
    },
  };
}
