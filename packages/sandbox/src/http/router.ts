/**
 * @module Which handler answers a request, by path (and, for JSON-2, by imitated version). Paths
 * no route knows get werkzeug's 404 page, as an Odoo without the `website` module answers.
 */
import type { SandboxReply, SandboxRequest } from './reply';
import { handleJson2 } from './routes/json2-route';
import { handleJsonRpc } from './routes/jsonrpc-route';
import { handleWebVersion } from './routes/web-version-route';
import { handleXmlRpc } from './routes/xmlrpc-route';
import type { RpcContext } from './services/rpc-context';
import { renderWerkzeugPage, WerkzeugException } from './werkzeug-exception';

/** `/xmlrpc/2/<service>` (integer faults) or `/xmlrpc/<service>` (string faults). */
const XMLRPC_PATH = /^\/xmlrpc\/(?:(2)\/)?([^/]+)$/;

export async function routeRequest(context: RpcContext, request: SandboxRequest): Promise<SandboxReply> {
  const { path } = request;
  const xmlrpc = XMLRPC_PATH.exec(path);
  if (xmlrpc) {
    if (request.method !== 'POST') return renderWerkzeugPage(new WerkzeugException(405, undefined, { Allow: 'POST' }));
    return handleXmlRpc(context, xmlrpc[2] ?? '', xmlrpc[1] ? 'int' : 'string', request);
  }
  if (path === '/jsonrpc') return handleJsonRpc(context, request);
  if (context.traits.hasJson2) {
    if (path === '/json/2' || path.startsWith('/json/2/')) return handleJson2(context, request);
    if (path === '/web/version') return handleWebVersion(context.traits);
  }
  return renderWerkzeugPage(new WerkzeugException(404));
}
