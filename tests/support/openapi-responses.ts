/**
 * The one response check every end-to-end suite uses: a response must match what generated/openapi.json
 * says of its route and status (schema, content type, headers), and a record fetched without `fields`
 * must carry every field. So the document cannot drift from the behaviour.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import openapi from '@ops-data-gateway/gateway/generated/openapi.json';

interface HeaderSpec {
  $ref?: string;
  required?: boolean;
  schema?: { pattern?: string };
}

interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }>; headers?: Record<string, HeaderSpec> }>;
}

type Doc = {
  paths: Record<string, { get: Operation }>;
  components: { responses: Record<string, Operation['responses'][string]>; headers: Record<string, HeaderSpec> };
};
const doc = openapi as unknown as Doc;

// verbose: errors carry the offending value (a drift null is told apart from any other error).
const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'x-personal-data' });
ajv.addKeyword({ keyword: 'x-relation' });
ajv.addSchema(openapi as object, 'openapi');

// A fixed path (`/export`) before a parameter's (`/{id}`), as the routes are matched.
const templates = Object.keys(doc.paths)
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{id\}/, '[^/]+')}$`) }))
  .sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));
const validators = new Map<string, ValidateFunction>();
const NO_FIELDS: ReadonlySet<string> = new Set();

function pointer(parts: readonly string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

export interface CheckedResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
  readonly text?: string;
}

/**
 * Asserts that `response` (to `GET path?query`) is one the OpenAPI document describes (a declared
 * status, its headers, its content type and schema, or no body when it declares no content); returns it.
 * `driftNulls`: fields the drift check found missing in the ERP, answered `null` whatever their schema
 * (a known, logged departure from the document; any other error still fails).
 */
export function expectDocumented<T extends CheckedResponse>(path: string, response: T, method = 'GET', driftNulls: ReadonlySet<string> = NO_FIELDS): T {
  const [pathname, search = ''] = path.split('?');
  const match = templates.find((t) => t.pattern.test(pathname as string));
  if (!match) {
    // Outside the documented routes: only the envelope 404 is possible.
    expect([response.status, (response.body as { error?: { code?: string } }).error?.code]).toEqual([404, 'not_found']);
    return response;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    // The document describes GET operations only; its description says any other method is 405 (HTML, Allow).
    expect([response.status, response.headers['allow']]).toEqual([405, 'GET, HEAD']);
    expect((doc as unknown as { info: { description: string } }).info.description).toContain('405');
    return response;
  }
  const contentType = String(response.headers['content-type'] ?? '').split(';')[0] as string;
  const operation = compatibleOperation(match.template, response.status, contentType);
  const declared = operation.responses[String(response.status)];
  if (!declared) throw new Error(`GET ${match.template} answered ${response.status}, which the OpenAPI document does not list`);
  const resolved = declared.$ref ? (doc.components.responses[declared.$ref.split('/').pop() as string] as typeof declared) : declared;
  for (const [header, declaredHeader] of Object.entries(resolved.headers ?? {})) {
    const spec = (declaredHeader.$ref ? doc.components.headers[declaredHeader.$ref.split('/').pop() as string] : declaredHeader) as HeaderSpec;
    const value = response.headers[header.toLowerCase()];
    // A required header is always there; an optional one (the rate-limit fields, present only when the operator set limits) matches its pattern when it is.
    if (spec.required) expect([response.status, header, value]).toEqual([response.status, header, expect.anything()]);
    if (value !== undefined && spec.schema?.pattern) expect([header, value]).toEqual([header, expect.stringMatching(new RegExp(spec.schema.pattern))]);
  }
  if (!resolved.content) {
    // A response without content (304): no body, nor a type for one.
    expect([response.status, response.headers['content-type'], response.text ?? '']).toEqual([response.status, undefined, '']);
    return response;
  }
  expect(Object.keys(resolved.content)).toContain(contentType);
  if (contentType !== 'application/json' || method === 'HEAD') return response;
  const key = `${match.template} ${response.status}`;
  let validate = validators.get(key);
  if (!validate) {
    const schemaPath = declared.$ref
      ? `openapi#/components/responses/${pointer([declared.$ref.split('/').pop() as string])}/content/application~1json/schema`
      : `openapi#/paths/${pointer([match.template])}/get/responses/${response.status}/content/application~1json/schema`;
    validate = ajv.compile({ $ref: schemaPath });
    validators.set(key, validate);
  }
  if (!validate(response.body)) {
    const errors = (validate.errors ?? []).filter(
      (e) => !(driftNulls.has(e.instancePath.split('/').pop() as string) && (e.keyword === 'type' || e.keyword === 'enum') && e.data === null),
    );
    if (errors.length) throw new Error(`GET ${path} ${response.status}: body does not match the OpenAPI document: ${ajv.errorsText(errors)}`);
  }
  if (response.status === 200 && !new URLSearchParams(search).has('fields')) expectComplete(match.template, response.body, expandedNames(search));
  return response;
}

/**
 * The operation that describes an answer of `template`: its own, except for an export answered on a
 * list path (`format` or `Accept`, kept for compatibility), which the list operation's description
 * says is the export route's answer: it is held to the export operation.
 */
function compatibleOperation(template: string, status: number, contentType: string): Operation {
  const own = doc.paths[template]?.get as Operation;
  if (status !== 200 || own.responses['200']?.content?.[contentType]) return own;
  const exported = doc.paths[`${template}/export`]?.get;
  return exported?.responses['200']?.content?.[contentType] ? exported : own;
}

/** Without `fields`, every record carries every field of its schema. */
function expectComplete(template: string, body: unknown, expanded: ReadonlySet<string>): void {
  const schema = doc.paths[template]?.get.responses['200']?.content?.['application/json']?.schema as
    | { properties: { data: { $ref?: string; items?: { $ref: string } } } }
    | undefined;
  if (!schema) throw new Error(`no 200 JSON schema documented for GET ${template}`);
  const schemaRef = schema.properties.data;
  const name = (schemaRef.$ref ?? schemaRef.items?.$ref ?? '').split('/').pop() as string;
  const properties =
    (openapi as unknown as { components: { schemas: Record<string, { properties: Record<string, { 'x-relation'?: string }> }> } }).components.schemas[name]?.properties ?? {};
  // A relation (`x-relation`) is a key of the record only when the request expands it.
  const fields = Object.keys(properties).filter((key) => properties[key]?.['x-relation'] === undefined || expanded.has(key));
  const data = (body as { data: unknown }).data;
  for (const record of Array.isArray(data) ? data : [data]) expect(Object.keys(record as object).sort()).toEqual([...fields].sort());
}

/** The relation names `expand` asks for (`lines(id,price_total),order` → lines, order). */
function expandedNames(search: string): Set<string> {
  const text = new URLSearchParams(search).get('expand') ?? '';
  return new Set(
    text
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}
