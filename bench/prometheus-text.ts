/**
 * @module Counters read from a gateway's /metrics (the Prometheus text exposition) by the benches and live scripts.
 */

/** The sums of a counter's series by the value of one label, from a Prometheus text exposition. */
export async function byLabel(metricsUrl: string, name: string, label: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const sums: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const value = new RegExp(`${label}="([^"]*)"`).exec(line)?.[1] ?? '';
    sums[value] = (sums[value] ?? 0) + Number(line.split(' ').at(-1));
  }
  return sums;
}

/** Each counter's increase from `before` to `after`. */
export const minus = (after: Record<string, number>, before: Record<string, number>) => Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
