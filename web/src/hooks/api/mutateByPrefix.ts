import { mutate } from 'swr';

/**
 * Revalidates every cached SWR key that starts with `prefix` (the keys are API paths), e.g.
 * every connections answer after a sync run ends. Keys nobody has loaded are left alone.
 */
export function mutateByPrefix(...prefixes: readonly string[]) {
  return mutate((key) => typeof key === 'string' && prefixes.some((prefix) => key.startsWith(prefix)));
}
