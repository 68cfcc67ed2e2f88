/** What the gateway's access log says of requests (the JSON lines a test gateway keeps). */

/** The `cache` field of the access log lines written since `from`, for data routes. */
export function cacheOutcomes(logLines: readonly string[], from: number): string[] {
  return logLines
    .slice(from)
    .map((line) => JSON.parse(line) as { msg?: string; route?: string; cache?: string })
    .filter((line) => line.msg === 'request' && line.route?.startsWith('/api/v1/'))
    .map((line) => line.cache ?? '(none)');
}
