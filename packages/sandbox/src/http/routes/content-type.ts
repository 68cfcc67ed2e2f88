/**
 * @module The refusal of a body whose `Content-Type` does not fit a JSON route
 * (`_set_request_dispatcher`, odoo/http.py): werkzeug's HTML page, 400 in 17/18, 415 with an
 * `Accept` header and an extra hint in 19.
 */
import { requestMimetype, type SandboxReply, type SandboxRequest } from '../reply';
import type { VersionTraits } from '../version-traits';
import { renderWerkzeugPage, WerkzeugException } from '../werkzeug-exception';

export function contentTypeRefusal(traits: VersionTraits, request: SandboxRequest, route: string, routeType: string, acceptedMimetypes: readonly string[]): SandboxReply {
  // The route types this request would fit, in Odoo's dispatcher registration order.
  const mimetype = requestMimetype(request);
  const compatible = ['http'];
  if (mimetype === 'application/json' || mimetype === 'application/json-rpc') compatible.push(traits.jsonRouteType);
  if (traits.hasJson2 && (mimetype === 'application/json' || request.body.length === 0)) compatible.push('json2');
  const list = `[${compatible.map((type) => `'${type}'`).join(', ')}]`;
  const description = `Request inferred type is compatible with ${list} but '${route}' is type='${routeType}'.`;
  if (traits.contentTypeRefusal === 400) return renderWerkzeugPage(new WerkzeugException(400, description));
  return renderWerkzeugPage(new WerkzeugException(415, `${description}\n\nPlease verify the Content-Type request header and try again.`, { Accept: acceptedMimetypes.join(', ') }));
}
