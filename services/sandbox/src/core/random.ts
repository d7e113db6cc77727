/**
 * Deterministic randomness for the generator: a string hash (FNV-1a, then an avalanche mix) to
 * turn (seed, index, topic) into a 32-bit state, and mulberry32 for the stream. Same inputs →
 * the same numbers on every machine, so any order can be rebuilt from (seed, index) alone.
 */
// Module-level aliases: inside a vm context (Jest) every global lookup of `Math` goes through an
// interceptor, which made the generator ten times slower there.
const imul = Math.imul;
const floor = Math.floor;

export function hash32(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = `${part}\u0001`;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = imul(h, 0x01000193);
    }
  }
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static of(...parts: Array<string | number>): Rng {
    return new Rng(hash32(...parts));
  }

  /** A fast stream for (a hashed seed, a topic number, an index): no string work per order. */
  static mix(seedHash: number, topic: number, index: number): Rng {
    let h = (seedHash ^ imul(topic + 1, 0x9e3779b1)) >>> 0;
    h = imul(h ^ (h >>> 16), 0x85ebca6b);
    h = (h ^ imul(index + 1, 0xc2b2ae35)) >>> 0;
    h = imul(h ^ (h >>> 13), 0x27d4eb2f);
    h ^= h >>> 16;
    return new Rng(h >>> 0);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[floor(this.next() * items.length)];
  }

  /** Picks by weight: entries are [value, weight]. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  /** Lowercase hex of the given length (Printify ids are 24 hex digits). */
  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, length);
  }

  alnum(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[floor(this.next() * alphabet.length)];
    return out;
  }
}

/** Topic numbers of the per-order random streams (see Rng.mix). */
export const STREAM = {
  order: 1,
  buyer: 2,
  created: 3,
  printifyId: 4,
  reprintId: 5,
  sample: 6,
  variety: 7,
  account: 8,
  bulk: 9,
  labelRefund: 10,
  autoRenew: 11,
  split: 12,
  splitId: 13,
  sampleKind: 14,
  pending: 15,
} as const;
