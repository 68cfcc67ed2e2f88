/**
 * @module `make live-feed-cost`: what the change feed costs a live Odoo (JSON-2, from LIVE_ERP_*
 * settings; BENCHMARKS.md, docs/compatibility.md), on `stock/pickings` (or LIVE_FEED_RESOURCE):
 * its ERP calls timed alone, and a first sync and caught-up polls through a gateway
 * (bench/feed-cost.ts says what and how). Read-only. Run it as the ERP is, then once more after a
 * DBA's `CREATE INDEX ... (write_date)` (and drop the index again after), and compare.
 *
 * LIVE_FEED_ROUNDS (7) timed calls each, LIVE_FEED_PAGES (20) pages per part of the first sync,
 * LIVE_FEED_FULL=1 for a whole first sync too.
 */
import { measureFeedCost } from '../bench/feed-cost';
import { liveErpSettings } from './settings';

async function main(): Promise<void> {
  const found = liveErpSettings();
  if (!found.ok) {
    console.error(`live-feed-cost: ${found.reason}; see docs/compatibility.md`);
    process.exit(2);
  }
  const { url, database, login, key, apiGroup } = found.settings;
  const lines = await measureFeedCost({
    url,
    database,
    login,
    key,
    ...(apiGroup ? { apiGroup } : {}),
    rounds: Number(process.env['LIVE_FEED_ROUNDS'] ?? 7),
    pages: Number(process.env['LIVE_FEED_PAGES'] ?? 20),
    full: process.env['LIVE_FEED_FULL'] === '1',
    polls: 12,
    compareWalk: true,
    resource: process.env['LIVE_FEED_RESOURCE'] ?? 'stock/pickings',
    ports: [18_470, 18_471],
  });
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(2);
});
