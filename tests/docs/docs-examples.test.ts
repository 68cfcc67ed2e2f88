/**
 * The example answers the docs page and llms.txt show, one per resource, are built from the
 * catalogue: each must be an answer the OpenAPI document allows for its list route (schema, every
 * field present), and the documents must show exactly that example.
 */
import request from 'supertest';
import { EXAMPLE_ID, exampleListAnswer, exampleRecord } from '../../codegen/emit/example-record';
import { expectDocumented } from '../support/openapi-responses';
import { catalogue, createDocsApp, idsOnNameLines } from './docs-app';

/** The headers every data answer carries (the example is about the body; these only satisfy the headers the document requires). */
const DATA_ANSWER_HEADERS = { 'content-type': 'application/json; charset=utf-8', etag: '"x"', 'cache-control': 'no-store', 'x-request-id': 'example' };

const resources = catalogue().domains.flatMap((d) => d.resources);
const app = createDocsApp();
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

let html = '';
let llms = '';
beforeAll(async () => {
  html = (await request(app).get('/api/docs')).text;
  llms = (await request(app).get('/llms.txt')).text;
});

describe('example answers', () => {
  it.each(resources.map((r) => [r.path, r] as const))('%s: the example list answer is valid for its route in the OpenAPI document', (path, resource) => {
    const body = exampleListAnswer(resource);
    expectDocumented(`/api/v1/${path}`, { status: 200, headers: DATA_ANSWER_HEADERS, body });
    // And the detail answer with the same record.
    expectDocumented(`/api/v1/${path}/${EXAMPLE_ID}`, { status: 200, headers: DATA_ANSWER_HEADERS, body: { data: body.data[0] } });
  });

  it('the check above fails on a wrong example (a field of the wrong type)', () => {
    const resource = resources[0]!;
    const body = exampleListAnswer(resource);
    (body.data[0] as Record<string, unknown>)['id'] = 'forty-two';
    expect(() => expectDocumented(`/api/v1/${resource.path}`, { status: 200, headers: DATA_ANSWER_HEADERS, body })).toThrow(/does not match/);
  });

  it.each(resources.map((r) => [r.path, r] as const))('%s: the docs page and llms.txt show its example', (path, resource) => {
    const start = html.indexOf(`<article class="res" id="${path}">`);
    const card = html.slice(start, html.indexOf('</article>', start));
    expect(card).toContain(escapeHtml(JSON.stringify(exampleListAnswer(resource), null, 2)));
    // llms.txt leaves out the ids it says on their names' lines.
    const folded = idsOnNameLines(resource);
    const example = Object.fromEntries(Object.entries(exampleRecord(resource)).filter(([name]) => !folded.has(name)));
    expect(llms).toContain(`Example record (shape only): ${JSON.stringify(example)}\n`);
  });
});
