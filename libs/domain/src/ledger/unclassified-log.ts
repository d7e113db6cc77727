import { ledgerClass } from '../fees/ledger-types';

/**
 * The ledger types not yet classified among `types`, each reported once per `seen` set (a
 * process keeps one, so a type is logged once per process, not once per entry or run).
 */
export function newUnclassifiedTypes(types: Iterable<string>, seen: Set<string>): string[] {
  const fresh: string[] = [];
  for (const type of types) {
    const key = type.trim().toLowerCase();
    if (seen.has(key) || ledgerClass(type).class !== 'unclassified') continue;
    seen.add(key);
    fresh.push(type);
  }
  return fresh;
}
