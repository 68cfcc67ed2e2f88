/**
 * @module `generated/llms.txt`: the whole interface as flat Markdown (llms.txt convention: H1, a
 * blockquote summary, then sections), for agents. The conventions are said once; each route then
 * has one line per field and per filter. The gateway serves it at `/api/llms.txt` with `{base_url}`
 * replaced by its public base URL. The small describers are shared with the HTML docs page.
 */
import { banner } from '../banner';
import { COMMON_LIST_PARAMETERS, LIMITS, type CatalogueModel, type FieldModel, type FilterModel, type ResourceModel } from '../model/catalogue-model';
import { exampleRecord } from './example-record';
import { ERROR_STATUSES } from './openapi';

/** The placeholder the gateway replaces with its public base URL when serving a document. */
export const BASE_URL_PLACEHOLDER = '{base_url}';

/** TypeScript-like type of a field's value: `string(date)|null`, `"a"|"b"|null`, `string[]`. */
function fieldTypeText(field: FieldModel): string {
  let type: string;
  if (field.type === 'array') type = `${field.items ?? 'string'}[]`;
  else if (field.enum) type = field.enum.map((v) => JSON.stringify(v)).join('|');
  else type = field.format ? `${field.type}(${field.format})` : field.type;
  return field.nullable ? `${type}|null` : type;
}

/** Value format of a filter: `integer`, `text`, `true|false`, `date`, `"a"|"b"`, `integer list`. */
function filterValueText(filter: FilterModel): string {
  switch (filter.type) {
    case 'string':
      return 'text';
    case 'boolean':
      return 'true|false';
    case 'enum':
      return (filter.values ?? []).map((v) => JSON.stringify(v)).join('|');
    case 'integer-list':
      return 'integer list';
    default:
      return filter.type;
  }
}

const AUTO_DESCRIPTION =
  /^Records whose (\S+) is (?:equal to|containing \(case-insensitive\) the text|on or after the given date|on or before the given date|at least the given|at most the given)/;

/**
 * A filter's description when it says more than its name, operator and type do. The generated
 * default (`Records whose x is ...`) is reduced to the field it applies to, or to nothing.
 */
export function filterNote(filter: FilterModel, resource: ResourceModel): string {
  const auto = AUTO_DESCRIPTION.exec(filter.description);
  if (!auto) return filter.description;
  const subject = auto[1] as string;
  return subject !== filter.name && resource.fields.some((f) => f.name === subject) ? `On field \`${subject}\`.` : '';
}

/** The fixed selection that limits which records a resource exposes, in words; '' when none. */
export function scopeText(resource: ResourceModel): string {
  return resource.scope.map((t) => `${t.erp} ${t.op} ${Array.isArray(t.value) ? t.value.join(',') : String(t.value)}`).join(' and ');
}

/** A list URL with the given filters set to their example values (default: the first filter). */
export function exampleListUrl(resource: ResourceModel, filters: readonly FilterModel[] = resource.filters.slice(0, 1)): string {
  const params = filters.map((f) => `${f.name}=${encodeURIComponent(f.example).replace(/%2C/g, ',')}`);
  return `${BASE_URL_PLACEHOLDER}/api/v1/${resource.path}?${[...params, 'limit=10'].join('&')}`;
}

const isDate = (f: FilterModel): boolean => f.type === 'date' || f.type === 'date-time';

/** The example the guides use: a resource with an enumerated and a date filter, and its URL with both. */
export function sampleRequest(model: CatalogueModel): { readonly resource: ResourceModel; readonly url: string } {
  const resources = model.domains.flatMap((d) => d.resources);
  const resource = resources.find((r) => r.filters.some((f) => f.type === 'enum') && r.filters.some(isDate)) ?? resources[0];
  if (!resource) throw new Error('docs: the catalogue has no resource');
  const filters = [resource.filters.find((f) => f.type === 'enum'), resource.filters.find(isDate)].filter((f): f is FilterModel => f !== undefined);
  return { resource, url: exampleListUrl(resource, filters) };
}

export function sortableNames(resource: ResourceModel): string[] {
  return Object.keys(resource.sortable);
}

function marks(item: { readonly deprecated: boolean; readonly personal?: boolean }): string {
  return `${item.personal ? ' [personal data]' : ''}${item.deprecated ? ' [deprecated]' : ''}`;
}

function routeSection(resource: ResourceModel): string {
  const lines = [
    `### ${resource.path}: ${resource.title}${resource.deprecated ? ' [deprecated]' : ''}`,
    resource.description,
    `List: GET /api/v1/${resource.path}. Detail: GET /api/v1/${resource.path}/{id}.`,
    `Default order: ${resource.defaultOrderText}. Sortable: ${sortableNames(resource).join(', ') || 'none'}.${scopeText(resource) ? ` Scope: ${scopeText(resource)}.` : ''}`,
    'Fields:',
    ...resource.fields.map((f) => `- ${f.name}: ${fieldTypeText(f)}${marks(f)}. ${f.description}`),
  ];
  if (resource.filters.length) {
    lines.push('Filters:');
    for (const f of resource.filters) {
      const note = filterNote(f, resource);
      lines.push(`- ${f.name} ${f.op} ${filterValueText(f)}${marks(f)}${note ? `. ${note}` : ''}`);
    }
  } else lines.push('Filters: none.');
  lines.push(`Example record (shape only): ${JSON.stringify(exampleRecord(resource))}`);
  return lines.join('\n');
}

export function emitLlmsTxt(model: CatalogueModel): string {
  const resources = model.domains.flatMap((d) => d.resources);
  const domains = model.domains.map((d) => d.domain).join(', ');
  const base = BASE_URL_PLACEHOLDER;
  const errors = ERROR_STATUSES.map(([status, code, condition]) => `| ${status} | ${code} | ${condition} |`);
  const text = `# Operations data API

> Read-only HTTP JSON API over the organisation's ERP: ${resources.length} resources in ${model.domains.length} domains (${domains}). Every data route is GET, needs \`Authorization: Bearer <API key>\` and answers \`{"data": [...], "meta": {...}}\` (list) or \`{"data": {...}}\` (detail). Interface version ${model.version}.

Companion documents (no credentials): ${base}/api/openapi.json (OpenAPI 3.1), ${base}/api/docs (HTML). This text is served at ${base}/llms.txt and ${base}/api/llms.txt. Agents with MCP: see "MCP server" below.

## Base URL

The base URL is ${base}. Every path below is relative to it; data routes are under ${base}/api/v1. Each resource has a list route \`/api/v1/<domain>/<resource>\` and a detail route \`/api/v1/<domain>/<resource>/{id}\` (\`{id}\`: positive integer). Only GET and HEAD exist; no route writes.

## Authentication

Send \`Authorization: Bearer <API key>\` on every data route. The key is an ERP API key of the dedicated technical account (member of the API group).
- Getting a key: ask the ERP administrator who holds the API's technical account; they create it in the ERP under Preferences > Account security > New API key (a name and an expiry date). It is shown once: keep it in a secret store or an environment variable, never in a prompt, a URL or a log. On the demo sandbox, \`make run\` prints one.
- 401 \`unauthorized\` (with \`WWW-Authenticate: Bearer\`): key absent, invalid or expired.
- 403 \`forbidden\`: valid key of another account (even an administrator), or no read right on the model.

## MCP server

Agents that speak the Model Context Protocol use the same key and rules through tools instead of URLs.
- Streamable HTTP: \`POST ${base}/mcp\` with \`Authorization: Bearer <API key>\` (stateless: no session id; GET is 405). No key: 401 as above.
- stdio (local agents): \`GATEWAY_URL=${base} API_KEY=<key> npm run mcp\` in a clone of the gateway; it forwards to /mcp.
- Tools (${3 + model.domains.length}): \`list_resources\`; \`describe_resource\` (fields, enums, filters, sort keys, personal-data flags); \`query_<domain>\` (one per domain: \`resource\`, named \`filters\`, \`fields\`, \`order\`, \`limit\`, \`since_id\`, \`total\`); \`get_record\` (\`resource\` as \`domain/name\`, \`id\`, \`fields\`).
- Answers are structured content (\`{"resource", "data", "meta"}\`); personal-data fields are left out unless named in \`fields\` (\`meta.personal_fields_omitted\` lists them). Errors are tool errors whose text is \`{"error": {"code", "message", "status"}}\`, the codes of the table below.

## Responses and paging

List: \`{"data": [record, ...], "meta": {"total": n, "next_since_id": n|null}}\` (with changed_since: \`{"next_changed_since": token, "more_changes": bool, "removed_ids": [id, ...]}\`). Detail: \`{"data": record}\`. A record holds the resource's fields (all of them, or those named in \`fields\`; \`id\` always).
- Offset paging: \`limit\` + \`offset\`, in \`order\`; \`meta.total\` counts every match. Cost grows with depth.
- Cursor paging (full scans): \`since_id=0\`, then pass back \`meta.next_since_id\` until it is \`null\`. Ascending id, constant cost. Not with \`offset\` or \`order\` (400).
  Example: \`GET /api/v1/${sampleRequest(model).resource.path}?since_id=0&limit=200&total=false\` answers \`{"data": [..., {"id": 212, ...}], "meta": {"next_since_id": 212}}\`; ask again with \`since_id=212\`; stop at \`"next_since_id": null\`. Never compute the cursor yourself.
- \`total=false\` omits \`meta.total\` (the count scans every match): use it for cursor scans and when no count is needed.
- Unchanged answers: every 200 JSON answer carries an \`ETag\` (an export has none); send it back in \`If-None-Match\` (several comma-separated, or \`*\`) and an unchanged answer is 304 with no body. The data is still read from the ERP, and answers are \`Cache-Control: no-store\`: keep the ETag and the body yourself. Where the operator turned the gateway's response cache on for a resource, its answers are \`Cache-Control: private, max-age=…\` with an \`Age\` instead: they may come from the gateway's cache, at most \`max-age\` seconds old.

## Common parameters and limits

List routes: ${COMMON_LIST_PARAMETERS.join(', ')}. Detail routes: fields only.
- limit: integer, default ${LIMITS.limitDefault}, min ${LIMITS.limitMin}, above ${LIMITS.limitMax} lowered to ${LIMITS.limitMax} without error.
- offset: integer >= ${LIMITS.offsetMin}, default 0.
- since_id: integer >= ${LIMITS.sinceIdMin}; cursor (see paging).
- total: true|false, default true.
- order: \`field\`, \`field asc\` or \`field desc\`, several comma-separated; sortable fields only (listed per route); \`id\` is appended last. Unset values: a number that is not set is read as 0 and sorts as 0 (first ascending, last descending, beside the zeros; before negative numbers ascending); a date or text that is not set (null) sorts after every value ascending and before every value descending. Ties are broken by \`id\`, except on date-times: the ERP keeps fractions of a second that answers round off, so records showing the same date-time are ordered by that hidden fraction first.
- fields: comma-separated field names; unknown name is 400.
- format: csv|ndjson|json. csv or ndjson (or \`Accept: text/csv\` / \`application/x-ndjson\`): an export of every matching record, streamed by ascending id, with the filters and \`fields\`; \`since_id\` resumes after an id; not with limit, offset, order or total (400); past the gateway's row ceiling 422 before anything is sent. CSV: RFC 4180, header row, null = empty field, empty text = \`""\`, arrays as JSON text. An export that ends without its last chunk was cut short.
- changed_since: ISO 8601 date-time or the token \`meta.next_changed_since\` gave. Change feed: records written at or after it, in (write_date, id) order (by id for the rest of a large window where the ERP has no write_date index); loop while \`meta.more_changes\` is true, keep the last token for the next sync (nothing missed or repeated, same second included). Records that left the resource or the filters, and deleted records: \`meta.removed_ids\` (may name ids never seen: ignore them; exports: \`_removed\` column; the next token in the \`X-Next-Changed-Since\` header). Not with order, offset, since_id or total=true (400).
Any other query key than these and the route's filters is 400. Malformed common values (\`limit=0\`, \`offset=-1\`, \`total=maybe\`) are 422.

## Filters

Query keys named per route, one value each (except \`in\`), AND-combined. Example: \`GET ${sampleRequest(model).url}\`.
- Operators: \`=\` exact; \`ilike\` case-insensitive substring of the literal text (\`%\` and \`_\` are not wildcards); \`>=\` / \`<=\` bounds (inclusive); \`in\` one of several.
- integer: a whole number (ids of related records for \`*_id\`). number: decimal with \`.\`.
- text: any non-empty text (URL-encode it).
- true|false: case-insensitive.
- Quoted values (\`"a"|"b"\`): an enumeration; send one of them exactly, without quotes (\`state=done\`); another value is 422.
- date: on a date field; \`YYYY-MM-DD\` (an ISO 8601 date-time is accepted, its UTC date is used).
- date-time: on a timestamp field; \`YYYY-MM-DD\` or ISO 8601 date-time (\`2026-01-31T08:00:00Z\`, offsets converted to UTC, none means UTC). A date alone: \`*_after\` from 00:00:00Z of that day, \`*_before\` through the end of that day.
- integer list (\`in\`): positive ids comma-separated (\`assignee_id=3,5\`) or the key repeated (\`assignee_id=3&assignee_id=5\`).
- Empty value, repeated key on a single-value filter, or unusable value: 422.
- Scope: where a route states one, only matching records exist for the API (list and detail, 404 outside).

## Field types (notation below)

\`integer\`, \`number\`, \`boolean\`, \`string\`; \`string(date)\` is \`YYYY-MM-DD\`; \`string(date-time)\` is ISO 8601 UTC ending in \`Z\`; \`|null\` may be null (an empty or unreadable relation is null); \`"a"|"b"\` enumeration (exact strings); \`string[]\` readable names of related records, \`integer[]\` their ids. \`*_id\` fields are ids of related records, the sibling without \`_id\` is the readable name. \`url\` links to the record in the ERP interface. [personal data] marks personal data; [deprecated] marks what may go (responses touching it carry a \`Deprecation\` header).

## Errors

Body \`{"error": {"code": "...", "message": "..."}}\`; rely on the status. Every answer, errors included, carries \`X-Request-Id\` (yours when you send a safe one, else made for the request): quote it when reporting a problem. Data answers carry \`Server-Timing\` (ERP time, gateway time, cache outcome).

| Status | Code | Condition |
| --- | --- | --- |
${errors.slice(0, 4).join('\n')}
| 405 | (HTML body) | Any method other than GET or HEAD; \`Allow: GET, HEAD\` |
${errors.slice(4).join('\n')}

429 and 503 carry \`Retry-After\` (seconds). When the operator limits each API key, data answers carry \`RateLimit-Policy\` (\`"per-key";q=600;w=60\`: 600 points per 60 s) and \`RateLimit\` (\`"per-key";r=598;t=42\`: 598 left, the window ends in 42 s); past the quota: 429 \`rate_limited\` with \`Retry-After\`.

What to do: 400 (unknown parameter, or \`offset\`/\`order\` with \`since_id\`): fix the request, the message names the parameter. 422: fix the value, an enumeration's message lists the allowed ones. 401: the key is wrong or expired, get a new one (do not retry). 403: this key may not read this resource (do not retry). 404: no such record in scope. 429, 503: wait \`Retry-After\` seconds, then retry once. 502, 504: the ERP failed or was slow; retry later with a smaller \`limit\` or \`total=false\`. Never retry a 4xx unchanged.

## Routes

Per domain, per resource: description; paths; default order, sortable fields, scope; \`Fields:\` one line each (\`name: type [marks]. description\`); \`Filters:\` one line each (\`name operator value-format. note\`); an example record (its shape and value formats, not real data; a list answers \`{"data": [record, ...], "meta": {"total": n}}\`).

${model.domains.map((d) => `## ${d.domain}: ${d.title}\n\n${d.description}\n\n${d.resources.map(routeSection).join('\n\n')}`).join('\n\n')}

<!-- ${banner('catalogue/*.yaml')} -->
`;
  return text;
}
