/**
 * @module A page of the change feed on a list route (`changed_since`): the records written since the
 * token, and those that left the resource, in `(write_date, id)` order (changes/change-feed.ts), never
 * cached.
 */
import { changePage } from '../../../changes/change-feed';
import { encodeJson, sendEncoded } from '../../../http/send-json';
import type { ListQuery } from '../../../query/parse-query';
import { unreadableFieldsHeader } from '../../../resource-reader';
import { erpStatsOf, setCacheOutcome } from '../../../request/request-context';
import { deprecationHeaders } from '../../deprecation';
import type { Admitted, KindDependencies } from '../../kind-route';

export function changesAnswer({ changes, compression }: KindDependencies) {
  return async (query: ListQuery, { req, res, principal, resource }: Admitted): Promise<void> => {
    // Read from the ERP as it is asked: a page of the feed is never cached.
    setCacheOutcome(res, 'bypass');
    for (const [name, value] of Object.entries(deprecationHeaders(resource, query.deprecated))) res.setHeader(name, value);
    const page = await changePage(changes, principal, resource, query, erpStatsOf(res));
    for (const [name, value] of Object.entries(unreadableFieldsHeader(page.unreadable))) res.setHeader(name, value);
    const { bytes, etag } = encodeJson(page.body);
    await sendEncoded(req, res, bytes, etag, compression);
  };
}
