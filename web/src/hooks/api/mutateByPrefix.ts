import { mutate } from 'swr';

const matching = (prefixes: readonly string[]) => (key: unknown) =>
  typeof key === 'string' && prefixes.some((prefix) => key.startsWith(prefix));

/**
 * Revalidates every cached SWR key that starts with `prefix` (the keys are API paths), e.g.
 * every connections answer after a sync run ends. Only keys on screen are asked again; the
 * others keep their answer.
 */
export function mutateByPrefix(...prefixes: readonly string[]) {
  return mutate(matching(prefixes));
}

/**
 * After a change to the orders: every cached key under `prefixes` is emptied and the ones on
 * screen are asked again. Emptying matters: the app never revalidates stale data on mount
 * (spec §9), so a key only revalidated while on screen kept its old answer for the next visit —
 * Orders back on "Active orders" after a Restore showed the count and rows from before it. The
 * lists and the dashboard's figures keep their previous answer on screen while the new one
 * loads (`keepPreviousData`).
 */
export function resetByPrefix(...prefixes: readonly string[]) {
  return mutate(matching(prefixes), undefined, { revalidate: true });
}
