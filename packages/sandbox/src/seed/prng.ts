/**
 * @module Deterministic pseudo-random numbers (mulberry32) and the draws the seeder makes. One
 * stream per model and purpose, so adding a model or scaling one leaves the others' data alone.
 */

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  /** Float in [min, max]. */
  float(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(values: readonly T[]): T;
}

export function createRandom(seed: number, ...streams: string[]): Random {
  let state = mix(seed, streams.join('\u0000')) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (values) => values[Math.floor(next() * values.length)]!,
  };
}

/** FNV-1a of the stream name, folded with the seed. */
function mix(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}
