/**
 * @module The gate's verdict on a changelog: breaking changes pass only with a major version bump of
 * the catalogue's API version or an acknowledgement added with the change.
 */
import type { BreakingChange, Changelog } from '../../codegen/changes/changelog';
import type { Acknowledgement } from './acknowledged';

export interface Verdict {
  /** Breaking changes let through, each with what let it through. */
  readonly accepted: readonly { readonly change: BreakingChange; readonly by: string }[];
  /** Breaking changes without a major bump or an acknowledgement: the gate fails. */
  readonly refused: readonly BreakingChange[];
  /** Acknowledgements added since the base that matched no change (stale or mistyped). */
  readonly unused: readonly Acknowledgement[];
}

/**
 * `acknowledgements`: only the entries added since the base. An entry acknowledges the change made
 * with it; one already there at the base acknowledged an earlier change, and letting it through again
 * would silently accept the same break made anew.
 */
export function judge(changelog: Changelog, versions: { readonly base: string; readonly revision: string }, acknowledgements: readonly Acknowledgement[]): Verdict {
  const majorBump = majorOf(versions.revision) > majorOf(versions.base);
  const used = new Set<Acknowledgement>();
  const accepted: { change: BreakingChange; by: string }[] = [];
  const refused: BreakingChange[] = [];
  for (const change of changelog.breaking) {
    if (majorBump) {
      accepted.push({ change, by: `major version bump ${versions.base} -> ${versions.revision}` });
      continue;
    }
    const ack = acknowledgements.find((entry) => entry.matches(change.line));
    if (ack) {
      used.add(ack);
      accepted.push({ change, by: `acknowledged (line ${ack.line}): ${ack.reason}` });
    } else refused.push(change);
  }
  return { accepted, refused, unused: majorBump ? [] : acknowledgements.filter((entry) => !used.has(entry)) };
}

function majorOf(version: string): number {
  const major = Number(/^(\d+)\./.exec(version)?.[1]);
  return Number.isFinite(major) ? major : 0;
}
