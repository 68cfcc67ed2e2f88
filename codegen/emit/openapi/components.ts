/**
 * @module What the operations of `generated/openapi.json` share: the error statuses, the components
 * (schemas, responses, parameters, headers) they refer to, and the helpers each kind's operation
 * (codegen/kinds/<kind>/) is built with.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { LIMITS, type CatalogueModel, type FilterModel, type ResourceModel } from '../../model/catalogue-model';
import { recordTypeName } from '../../model/names';
import { recordSchema } from '../record-schema';
import { CSV_DIALECT_VALUES, EXPORT_FORMAT_NAMES, EXPORT_FORMATS, formatList } from '../export-formats';

/** Error codes of the envelope, with the status each is sent with. Mirrors runtime/errors.ts (a test checks both ways). */
export const ERROR_STATUSES: readonly (readonly [number, string, string])[] = [
  [400, 'bad_request', 'Unknown parameter, invalid sort or unknown field.'],
  [401, 'unauthorized', 'API key absent, invalid or expired.'],
  [403, 'forbidden', 'Account not authorised to use the API, or no read right on the model.'],
  [404, 'not_found', 'Unknown resource, or record not found or outside the exposed scope.'],
  [422, 'invalid_value', 'A parameter value cannot be used (malformed date, integer expected, value outside the allowed list).'],
  [
    429,
    'rate_limited',
    'Too many failed authentications from this address, too many new API keys being checked at once, or (when the operator set per-key limits) this API key has used its quota of the window; retry after the Retry-After delay.',
  ],
  [500, 'internal_error', 'An unexpected failure of the gateway itself (a bug): logged, never detailed.'],
  [502, 'bad_gateway', 'The ERP is unreachable or answered with something that is not its protocol.'],
  [503, 'unavailable', 'The gateway is saturated (ERP calls or memory for ERP answers) or the resource is unavailable; retry after the Retry-After delay.'],
  [504, 'gateway_timeout', 'The ERP did not answer within the configured timeout.'],
];

/** A reference to a component: `ref('Fields', 'parameters')`. */
export const ref = (name: string, kind = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });

/** `meta.expanded`: with `expand`, what each `to_many` relation cut (runtime/resource-reader.ts). */
const EXPANDED_META: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  description: `With \`expand\`: for each \`to_many\` relation expanded, the bound per record and the records whose related records it cut (never a silent cut). A relation lists at most ${LIMITS.expandPerRecord} records per record, in the related list route's default order.`,
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: ['resource', 'per_record_max', 'truncated'],
    properties: {
      resource: { type: 'string', description: 'The related resource.' },
      per_record_max: { type: 'integer', description: 'Related records listed per record, at most.' },
      truncated: {
        type: 'array',
        description: 'The records whose related records were cut.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'total', 'next'],
          properties: {
            id: { type: 'integer', description: 'The record.' },
            total: {
              type: ['integer', 'null'],
              description: 'How many related records it has; `null` when the page had so many related records that the count is unknown (page them with `next`).',
            },
            next: { type: 'string', description: 'The related list route filtered on this record, from the first related record not listed.' },
          },
        },
      },
    },
  },
};

/** The `expand` parameter of a resource's list and detail routes. */
export function expandParameter(resource: ResourceModel): OpenAPIV3_1.ParameterObject {
  const names = resource.relations.map((r) => `\`${r.name}\` (${r.target})`).join(', ');
  return {
    name: 'expand',
    in: 'query',
    required: false,
    description: resource.relations.length
      ? `Related records inside each record: relation names, comma-separated, each optionally with the related resource's fields in parentheses (\`expand=${resource.relations[0]?.name}(id)\`; \`id\` is always returned). Relations: ${names}. One ERP read per relation for the whole page; a \`to_many\` relation lists at most ${LIMITS.expandPerRecord} records per record (\`meta.expanded\` names the records it cut, with the link that pages the rest). A relation whose model the API account cannot read is \`null\`, named in \`meta.unreadable_fields\`. Not with exports (\`format=csv|ndjson\`) or \`changed_since\`: 400.`
      : 'This resource has no relations: any value is refused (400).',
    schema: { type: 'string', minLength: 1, maxLength: 2048 },
  };
}

/** `meta.unreadable_fields`: present only when an answer holds such nulls (runtime/resource-reader.ts). */
export const UNREADABLE_FIELDS: OpenAPIV3_1.SchemaObject = {
  type: 'array',
  items: { type: 'string' },
  description:
    'Only when some are: the fields answered `null` in `data` because the API account may not read the model their value comes from (an unreadable relation), not because they are empty. A sync should not store such a null as the value.',
};

/** How a date-time bound reads (runtime/query/dates.ts): on the value as answered, to the second. */
const DATETIME_BOUND_TEXT: Readonly<Record<string, string>> = {
  '>=': ' A date alone starts at 00:00:00Z of that day. Compared with the value as answered (whole seconds): a record shown at this date-time is included; with a fraction of a second, only records shown at a later second.',
  '<=': ' A date alone covers that whole day. Compared with the value as answered (whole seconds): every record shown at this date-time is included, whatever fraction of a second the ERP keeps.',
};

/** A named filter as a query parameter of a list operation. */
export function filterParameter(filter: FilterModel): OpenAPIV3_1.ParameterObject {
  let schema: OpenAPIV3_1.SchemaObject;
  switch (filter.type) {
    case 'integer':
      schema = { type: 'integer', minimum: 0, maximum: LIMITS.int32Max };
      break;
    case 'number':
      schema = { type: 'number' };
      break;
    case 'boolean':
      schema = { type: 'boolean' };
      break;
    case 'string':
      schema = { type: 'string', minLength: 1, maxLength: 256 };
      break;
    case 'date':
    case 'date-time':
      schema = {
        anyOf: [
          { type: 'string', format: 'date' },
          { type: 'string', format: 'date-time' },
        ],
      };
      break;
    case 'enum':
      schema = { type: 'string', enum: [...(filter.values ?? [])] };
      break;
    case 'integer-list':
      schema = { type: 'array', items: { type: 'integer', minimum: 1, maximum: LIMITS.int32Max }, minItems: 1, maxItems: 100 } as OpenAPIV3_1.SchemaObject;
      break;
  }
  const parameter: OpenAPIV3_1.ParameterObject = {
    name: filter.name,
    in: 'query',
    required: false,
    description: `${filter.description} Operator \`${filter.op}\`.${filter.type === 'date-time' ? DATETIME_BOUND_TEXT[filter.op] : ''}`,
    schema: schema as OpenAPIV3_1.ParameterObject['schema'],
    example:
      filter.type === 'integer-list' ? [3, 5] : filter.type === 'integer' || filter.type === 'number' ? Number(filter.example) : filter.type === 'boolean' ? true : filter.example,
  };
  if (filter.type === 'integer-list') {
    parameter.style = 'form';
    parameter.explode = true;
  }
  if (filter.deprecated) parameter.deprecated = true;
  return parameter;
}

/** The error responses of an operation, by status (each a response component). */
export function errorResponses(statuses: readonly number[]): Record<string, OpenAPIV3_1.ReferenceObject> {
  const responses: Record<string, OpenAPIV3_1.ReferenceObject> = {};
  for (const status of statuses) responses[String(status)] = ref(`Error${status}`, 'responses');
  return responses;
}

/**
 * What a GET can answer besides the spec's own statuses. Neither 405 (a GET never gets it; the
 * document's description says which methods do) nor 500 (a gateway bug, not a contract): declaring
 * them on GET operations breaks the usual typed client's `if (error) throw …; data.data`.
 */
export const SERVER_ERRORS = [429, 502, 503, 504];
/** Headers of the per-key rate limits (decision D26), present only when the operator has set them. */
const RATE_LIMIT_HEADERS = { 'RateLimit-Policy': ref('RateLimitPolicy', 'headers'), RateLimit: ref('RateLimit', 'headers') };
/** Headers of every data answer, 200 and 304 (components.headers). */
const DATA_HEADERS = {
  ETag: ref('ETag', 'headers'),
  'Cache-Control': ref('CacheControl', 'headers'),
  Age: ref('Age', 'headers'),
  'Server-Timing': ref('ServerTiming', 'headers'),
  'X-Request-Id': ref('RequestId', 'headers'),
  'X-Unreadable-Fields': ref('UnreadableFields', 'headers'),
  ...RATE_LIMIT_HEADERS,
};

/**
 * The 200 of a data operation: its description, the data headers, and a closed JSON object holding
 * `properties` (`required` of them always); `more` adds other media types after the JSON one.
 */
export function dataResponse(
  description: string,
  required: readonly string[],
  properties: Record<string, OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject>,
  more: Record<string, OpenAPIV3_1.MediaTypeObject> = {},
): OpenAPIV3_1.ResponseObject {
  return {
    description,
    headers: DATA_HEADERS,
    content: { 'application/json': { schema: { type: 'object', additionalProperties: false, required: [...required], properties } }, ...more },
  };
}

/** Statuses some operation declares: only these get a response component. */
const DECLARED = new Set([400, 401, 403, 404, 422, ...SERVER_ERRORS]);

/** The resource's scope as a sentence of an operation's description (with its leading space); '' without one. */
export function scopeSentence(resource: ResourceModel): string {
  if (resource.scope.length === 0) return '';
  return ` Scope: only records with ${resource.scope.map((t) => `\`${t.erp} ${t.op} ${JSON.stringify(t.value)}\``).join(' and ')} are exposed.`;
}

/** The document's components: every schema, response, parameter and header the operations refer to. */
export function components(model: CatalogueModel): OpenAPIV3_1.ComponentsObject {
  const schemas: Record<string, OpenAPIV3_1.SchemaObject> = {
    Error: {
      type: 'object',
      additionalProperties: false,
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          additionalProperties: false,
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: ERROR_STATUSES.map(([, code]) => code) },
            message: { type: 'string' },
          },
        },
      },
    },
    ListMeta: {
      type: 'object',
      additionalProperties: false,
      properties: {
        total: { type: 'integer', minimum: 0, description: 'Records matching the filters; absent when `total=false`.' },
        next_since_id: { type: ['integer', 'null'], description: 'With `since_id`: the value for the next page, `null` when nothing remains.' },
        next_changed_since: {
          type: 'string',
          description: 'With `changed_since`: an opaque token to pass back as `changed_since` for the next page (and, once `more_changes` is false, for the next sync).',
        },
        more_changes: { type: 'boolean', description: 'With `changed_since`: true while more changes are ready to be read (ask again at once with `next_changed_since`).' },
        removed_ids: {
          type: 'array',
          items: { type: 'integer' },
          description:
            'With `changed_since`: ids to drop from a copy: records written in this window that are now outside the resource (its scope, such as archived records) or no longer match the filters, and ids the ERP no longer has (deleted records: each caught-up call with room left in its page checks one range of ids, going round the id space; `CHANGES_RECONCILE_IDS`). May name ids the client never had (deleted before its sync began): ignore those. Apply `data`, then `removed_ids`.',
        },
        unreadable_fields: UNREADABLE_FIELDS,
        expanded: ref('ExpandedMeta'),
      },
    },
    ExpandedMeta: EXPANDED_META,
  };
  for (const domain of model.domains)
    for (const resource of domain.resources) schemas[recordTypeName(resource.domain, resource.name)] = recordSchema(resource) as OpenAPIV3_1.SchemaObject;
  const headers: Record<string, OpenAPIV3_1.HeaderObject> = {
    ETag: {
      description: 'Strong entity tag of this answer (a hash of its body). Send it back in `If-None-Match` to get 304 while the answer is unchanged.',
      required: true,
      schema: { type: 'string' },
    },
    // The IETF draft's syntax (draft-ietf-httpapi-ratelimit-headers-10): runtime/admission/key-rate-limit.ts writes them.
    RateLimitPolicy: {
      description:
        'Only when the operator has set per-key rate limits: the quota policy of this API key, an IETF RateLimit-Policy field (draft-ietf-httpapi-ratelimit-headers), e.g. `"per-key";q=600;w=60`: `q` points per window of `w` seconds. A request costs at least one point (the operator may weigh counted lists more, and 304 answers less).',
      required: false,
      schema: { type: 'string', pattern: '^"per-key";q=[0-9]+;w=[0-9]+$' },
    },
    RateLimit: {
      description:
        'Only when the operator has set per-key rate limits: what this API key has left, an IETF RateLimit field, e.g. `"per-key";r=598;t=42`: `r` points left, `t` seconds until the window ends and its points are back.',
      required: false,
      schema: { type: 'string', pattern: '^"per-key";r=[0-9]+;t=[0-9]+$' },
    },
    TotalCount: {
      description:
        'Exports only (CSV, NDJSON): the rows the export holds, counted by the ERP just before its first page is read, and sent before the body (for a progress bar, or to size a load). Records created, deleted or changed while the export runs can make the body hold a few more or fewer rows than announced (a record created after the count with an id above the last one read comes, a deleted one does not): the body is the data, this is its forecast. Not with `changed_since`: the deleted records that end such an export are found while it is read.',
      required: false,
      schema: { type: 'integer', minimum: 0 },
    },
    UnreadableFields: {
      description:
        "Only when some are: the fields this answer holds as `null` because the API account may not read the model their value comes from (comma-separated names), as `meta.unreadable_fields` says in a JSON body. Such a null is not the record's value: a sync should not store it as one. On an export it names every such field of the file (an export that meets another one is cut short).",
      required: false,
      schema: { type: 'string' },
    },
    RequestId: {
      description:
        'The id of this request, on every answer: the `X-Request-Id` the client sent when it is a safe token (1 to 128 letters, digits and `_ . : + / = -`), else one made by the gateway. Quote it when reporting a problem.',
      required: true,
      schema: { type: 'string', maxLength: 128 },
    },
    ServerTiming: {
      description:
        'Where the time went: `erp` (the wall time spent waiting for the ERP, calls made in parallel counted once, and how many calls), `gw` (the rest of the time until the headers: `erp` + `gw` is that time), `cache` (what a response cache did: `off` when none).',
      schema: { type: 'string' },
    },
    CacheControl: {
      description:
        "`no-store` when the gateway does not cache this resource (the default). When it does (the catalogue's `cache` or the gateway's settings give the resource a TTL): `private, max-age=<TTL seconds>`, with `, stale-while-revalidate=<seconds>` when a stale window is set. The answer is one account's data: only the client may keep it, never a shared cache. A change in the ERP shows within the TTL (plus the stale window); authentication and the read right are still checked on every request.",
      required: true,
      schema: { type: 'string' },
    },
    Age: {
      description:
        'On resources the gateway caches only: seconds since the ERP gave this answer (0 when it was just read). Freshness left: `max-age` minus `Age`; past `max-age` the answer is stale, served within the stale window while the gateway reads it again.',
      required: false,
      schema: { type: 'integer', minimum: 0 },
    },
  };
  const responses: Record<string, OpenAPIV3_1.ResponseObject> = {
    // No content: a 304 has no body (and is neither a success nor an error to a typed client).
    NotModified: {
      description: 'Not modified: the answer is the one whose ETag the request sent in `If-None-Match`. No body.',
      headers: DATA_HEADERS,
    },
  };
  for (const [status, code, text] of ERROR_STATUSES) {
    if (!DECLARED.has(status)) continue;
    const headers: Record<string, OpenAPIV3_1.HeaderObject | OpenAPIV3_1.ReferenceObject> = { 'X-Request-Id': ref('RequestId', 'headers') };
    if (status === 401) headers['WWW-Authenticate'] = { required: true, schema: { type: 'string' }, description: '`Bearer`.' };
    if (status === 429 || status === 503) headers['Retry-After'] = { required: true, schema: { type: 'integer' }, description: 'Seconds to wait.' };
    if (status === 429) Object.assign(headers, RATE_LIMIT_HEADERS);
    responses[`Error${status}`] = {
      description: `\`${code}\`: ${text}`,
      headers,
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  const parameters: Record<string, OpenAPIV3_1.ParameterObject> = {
    Limit: {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Page size, at least ${LIMITS.limitMin}; a value above ${LIMITS.limitMax} is lowered to ${LIMITS.limitMax} without error.`,
      schema: { type: 'integer', minimum: LIMITS.limitMin, default: LIMITS.limitDefault },
    },
    Offset: {
      name: 'offset',
      in: 'query',
      required: false,
      description: 'Records to skip (offset paging; slows down with depth). Not with `since_id`.',
      schema: { type: 'integer', minimum: LIMITS.offsetMin, maximum: LIMITS.int32Max, default: 0 },
    },
    SinceId: {
      name: 'since_id',
      in: 'query',
      required: false,
      description: 'Cursor paging: only records with a greater id, in ascending id order, at constant cost. Pass back `meta.next_since_id`. Not with `offset` or `order`.',
      schema: { type: 'integer', minimum: LIMITS.sinceIdMin, maximum: LIMITS.int32Max },
    },
    Total: {
      name: 'total',
      in: 'query',
      required: false,
      description: '`false` omits `meta.total` (the count scans every matching record).',
      schema: { type: 'boolean', default: true },
    },
    Format: {
      name: 'format',
      in: 'query',
      required: false,
      description: `The export's format: ${formatList()}. Without it, the one \`Accept\` prefers among ${EXPORT_FORMAT_NAMES.map((name) => `\`${EXPORT_FORMATS[name].mediaType}\``).join(', ')}; \`${EXPORT_FORMAT_NAMES[0]}\` when \`Accept\` names none of them. As a parameter, for links opened in a browser or a spreadsheet, which cannot set \`Accept\`.`,
      schema: { type: 'string', enum: EXPORT_FORMAT_NAMES },
    },
    CsvFormulas: {
      name: 'csv_formulas',
      in: 'query',
      required: false,
      description:
        "CSV exports only (400 otherwise). `escaped` (the default): a text cell that a spreadsheet would read as a formula, one beginning with `=`, `+`, `-`, `@`, a tab or a carriage return (or the full-width `＝`, `＋`, `－`, `＠`), is written with a `'` in front, as OWASP advises against CSV injection, so that Excel or LibreOffice show it as text and compute nothing; numbers (`-12.5`), booleans, dates and arrays are never changed. `raw`: every text exactly as the ERP holds it, for loaders that are not spreadsheets (DuckDB, pandas); never open such a file in a spreadsheet when its texts come from outsiders.",
      schema: { type: 'string', enum: ['escaped', 'raw'], default: 'escaped' },
    },
    CsvDialect: {
      name: 'csv_dialect',
      in: 'query',
      required: false,
      description:
        "CSV exports only (400 otherwise). `rfc4180` (the default): UTF-8 without a byte-order mark, `,`, ISO 8601 date-times, `true`/`false`: what loaders (DuckDB, pandas, a database's `COPY`) read. `excel`: what Excel opens as it should by a double click: the UTF-8 byte-order mark first (without it Excel reads the file in the machine's legacy code page), date-times `2026-01-05 14:30:00` (UTC) and booleans `TRUE`/`FALSE`, which Excel reads as dates and booleans. `excel-semicolon`: the same with `;` between fields and a decimal comma (`12,5`), for Excel in the languages whose list separator is `;` (French, German, Spanish, ...). Texts made only of digits (`0042`) still lose their leading zeros in Excel: load such columns as text, or use a typed export.",
      schema: { type: 'string', enum: [...CSV_DIALECT_VALUES], default: 'rfc4180' },
    },
    ChangedSince: {
      name: 'changed_since',
      in: 'query',
      required: false,
      description:
        "Change feed: records written at or after this ISO 8601 date-time (a date alone is midnight UTC), or after the token `meta.next_changed_since` gave, in `(write_date, id)` order (where the ERP has no index on `write_date` and more changes are pending than a page holds, as in a first sync, the rest of the window comes by id). Loop while `meta.more_changes` is true, then keep the last token for the next sync: no record is missed or repeated, same second included. Records written in the last `CHANGES_SETTLE_MS` (default 10 s) wait for the next call. Records that left the resource or the filters, and deleted records, come in `meta.removed_ids` (exports: a `_removed` column; the token to go on from is the `X-Next-Changed-Since` header). A token of an earlier version (`v1.`) keeps working. Not with `order`, `offset`, `since_id` or `total=true`. A position in the future (more than 60 s ahead of the gateway's clock) is 422.",
      schema: { type: 'string', maxLength: 2048 },
    },
    Fields: {
      name: 'fields',
      in: 'query',
      required: false,
      description: 'Comma-separated subset of field names to return (`id` is always returned). Default: every field.',
      schema: { type: 'string' },
    },
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description:
        'ETags of answers the client holds (`"…"`, comma-separated, `W/` tags compared weakly) or `*`: when the answer would be one of them, it is 304 with no body. The data is still read from the ERP, unless the gateway caches the resource and holds a fresh answer (`Age` present).',
      schema: { type: 'string' },
    },
    Id: {
      name: 'id',
      in: 'path',
      required: true,
      description: 'Technical identifier of the record.',
      schema: { type: 'integer', minimum: 1, maximum: LIMITS.int32Max },
    },
  };
  return {
    schemas,
    responses,
    parameters,
    headers,
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key of the ERP, issued on the dedicated technical account (a member of the API group).',
      },
    },
  };
}
