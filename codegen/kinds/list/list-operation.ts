/** @module The list route in the OpenAPI document. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { DATA_HEADERS, errorResponses, filterParameter, ref, scopeSentence, SERVER_ERRORS } from '../../emit/openapi/components';
import type { ResourceModel } from '../../model/catalogue-model';
import { operationId, recordTypeName } from '../../model/names';

const EXPORT_CSV_TEXT =
  'RFC 4180 CSV in UTF-8, CRLF line ends, a header row of the field names. `null` is an empty field; an empty text is `""`; booleans `true`/`false`; arrays as JSON text (`[1,2]`, `["a","b"]`); date-times ISO 8601 with `Z`. A text a spreadsheet would read as a formula (beginning with `=`, `+`, `-`, `@`, a tab or a carriage return) has a `\'` in front unless `csv_formulas=raw`; numbers are never changed. With `changed_since`, a last column `_removed` (`true` for a record to drop, with only its `id`).';
const EXPORT_NDJSON_TEXT =
  'One JSON record per line (the records of the JSON list, unchanged), `\\n` after each. With `changed_since`, every line also has `_removed` (`true` for a record to drop, with only its `id`).';
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
      ref('ChangedSince', 'parameters'),
      ...resource.filters.map(filterParameter),
      ref('IfNoneMatch', 'parameters'),
    ],
    responses: {
      '200': {
        description:
          'A page of records (JSON, with an `ETag`), or an export of every matching record (CSV or NDJSON, asked by `Accept` or `format`), streamed in ascending id order (in `(write_date, id)` order with `changed_since`), with `Content-Disposition: attachment; filename="<domain>-<resource>-<UTC time>.<csv|ndjson>"` and no ETag.',
        // An export's Content-Disposition is described with its media types: a response header here would be promised on the JSON page too.
        // Likewise its ETag: a JSON page always has one, an export never, so the header is optional here.
        headers: { ...DATA_HEADERS, ETag: ref('PageETag', 'headers') },
        content: {
          'text/csv': { schema: { type: 'string', description: EXPORT_CSV_TEXT } },
          'application/x-ndjson': { schema: { type: 'string', description: EXPORT_NDJSON_TEXT } },
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
