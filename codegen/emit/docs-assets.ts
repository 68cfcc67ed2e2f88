/**
 * @module `generated/docs-assets.ts`: the documents the runtime serves, as string constants, so that
 * they reach `dist/` and the release bundle through the compiler like every other generated module
 * (no file to copy). Each is a template literal holding the document line for line, so that a change
 * to the page or to llms.txt is reviewed as a diff of the lines that changed.
 */
import { TS_BANNER } from '../banner';
import { BASE_URL_PLACEHOLDER } from './describe';

/** The text as a template literal: backslashes, backticks and `${` escaped, every other character as it is. */
function templateLiteral(text: string): string {
  return `\`${text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
}

export function emitDocsAssets(assets: { readonly html: string; readonly llms: string; readonly csp: string }): string {
  return `${TS_BANNER('catalogue/*.yaml')}
/** The Content-Security-Policy of the page: its inline style and script by hash, nothing else. */
export const DOCS_PAGE_CSP: string = ${JSON.stringify(assets.csp)};

/** The page served at \`/api/docs\`; \`${BASE_URL_PLACEHOLDER}\` is replaced by the public base URL. */
export const DOCS_PAGE_HTML: string = ${templateLiteral(assets.html)};

/** The flat Markdown served at \`/api/llms.txt\`; \`${BASE_URL_PLACEHOLDER}\` is replaced by the public base URL. */
export const LLMS_TXT: string = ${templateLiteral(assets.llms)};
`;
}
