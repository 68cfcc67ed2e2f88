/**
 * @module What the gate compares against: the OpenAPI document and the acknowledgements committed at
 * a git ref (the generated OpenAPI document is committed, so `git show REF:<its path>` is the
 * document as it was generated then, at the path it had then). A ref the clone cannot have (a shallow clone, the first commit)
 * is a reason to compare nothing, said as such; any other unknown ref is an error.
 */
import { execFileSync } from 'node:child_process';
import { ACKNOWLEDGED_CHANGES_FILE } from '../../codegen/load/load-catalogue';

export type BaseDocuments =
  | { readonly kind: 'found'; readonly openapi: unknown; readonly path: string; readonly acknowledgedText: string | undefined }
  | { readonly kind: 'nothing-to-compare'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string };

export const OPENAPI_PATH = 'packages/gateway/generated/openapi.json';
/** Where the document was committed before the gateway became the workspace package packages/gateway: a base that old is still compared. */
const EARLIER_OPENAPI_PATHS = ['generated/openapi.json'];
export const ACKNOWLEDGED_PATH = `catalogue/${ACKNOWLEDGED_CHANGES_FILE}`;

export function baseDocuments(root: string, ref: string): BaseDocuments {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const tryGit = (...args: string[]): string | undefined => {
    try {
      return git(...args);
    } catch {
      return undefined;
    }
  };
  if (tryGit('rev-parse', '--git-dir') === undefined) return { kind: 'error', message: `${root} is not a git work tree` };
  const commit = tryGit('rev-parse', '--verify', '--quiet', `${ref}^{commit}`)?.trim();
  if (!commit) {
    if (tryGit('rev-parse', '--is-shallow-repository')?.trim() === 'true')
      return { kind: 'nothing-to-compare', reason: `${ref} is not in this shallow clone (fetch more history, e.g. git fetch --deepen=1, to compare)` };
    if (tryGit('rev-list', '--max-parents=0', 'HEAD')?.trim() === tryGit('rev-parse', 'HEAD')?.trim())
      return { kind: 'nothing-to-compare', reason: `${ref} does not exist: HEAD is the first commit` };
    return { kind: 'error', message: `unknown git ref '${ref}'` };
  }
  for (const path of [OPENAPI_PATH, ...EARLIER_OPENAPI_PATHS]) {
    const openapi = tryGit('show', `${commit}:${path}`);
    if (openapi !== undefined) return { kind: 'found', openapi: JSON.parse(openapi) as unknown, path, acknowledgedText: tryGit('show', `${commit}:${ACKNOWLEDGED_PATH}`) };
  }
  return { kind: 'nothing-to-compare', reason: `${ref} has no ${OPENAPI_PATH}` };
}
