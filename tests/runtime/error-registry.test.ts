/** The error codes of the runtime's registry are those the OpenAPI document and the docs describe, both ways. */
import openapi from '@ops-data-gateway/gateway/generated/openapi.json';
import { DOCS_PAGE_HTML, LLMS_TXT } from '@ops-data-gateway/gateway/generated/docs-assets';
import { ERROR_CODES } from '@ops-data-gateway/gateway/runtime/errors';

describe('the error registry', () => {
  const documented = (openapi as unknown as { components: { schemas: { Error: { properties: { error: { properties: { code: { enum: string[] } } } } } } } }).components.schemas
    .Error.properties.error.properties.code.enum;

  it('equals the codes of the OpenAPI error schema', () => {
    expect([...documented].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('gives each code the status the OpenAPI document answers it with', () => {
    const responses = (openapi as unknown as { components: { responses: Record<string, { description: string }> } }).components.responses;
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      // 500 is a gateway bug, not a contract: described in the document's description, declared on no operation.
      if (status === 500) expect((openapi as unknown as { info: { description: string } }).info.description).toContain(code);
      else expect(responses[`Error${status}`]?.description).toContain(code);
    }
  });

  it('is listed in the docs page and in llms.txt', () => {
    for (const code of Object.keys(ERROR_CODES)) {
      expect([code, DOCS_PAGE_HTML.includes(code)]).toEqual([code, true]);
      expect([code, LLMS_TXT.includes(code)]).toEqual([code, true]);
    }
  });
});
