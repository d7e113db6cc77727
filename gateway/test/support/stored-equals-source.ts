import { queryDatabase } from '@pod/testing';
import { diffVersions, duplicateKeys, SourceOracle, storedVersions } from '../../../services/test/support/sync-fleet';
import type { SandboxProviders } from './sandbox-providers';
import type { Seller } from './sync-sellers';

/**
 * A seller's synced rows equal the source as the sandbox serves it: receipts (ids, payload
 * hashes and update times), ledger entries since a day before the oldest receipt, and Printify
 * orders; and no natural key stored twice. The same invariant as sync-replicas.int-spec.ts.
 */
export async function expectStoredEqualsSource(
  sandbox: SandboxProviders,
  databaseUrl: string,
  seller: Seller,
  redirectUri: string,
): Promise<void> {
  const oracle = await new SourceOracle(
    sandbox.url,
    (method, path, body) => sandbox.admin(method, path, body),
    seller.tenant,
    redirectUri,
  ).connect();
  const none = { missing: [], extra: [], changed: [] };
  const receipts = await oracle.receipts();
  expect(receipts.size).toBe(seller.tenant.orders);
  const storedReceipts = await storedVersions(databaseUrl, seller.userId, 'receipts');
  expect(diffVersions(receipts, storedReceipts)).toEqual(none);
  expect(storedReceipts.size).toBe(receipts.size);
  const [{ oldest }] = await queryDatabase<{ oldest: Date }>(
    databaseUrl,
    `SELECT min(ordered_at) AS oldest FROM etsy_receipt WHERE user_id = $1`,
    [seller.userId],
  );
  const ledger = await oracle.ledger(Math.floor(oldest.getTime() / 1000) - 86_400, Math.floor(Date.now() / 1000));
  const storedLedger = await storedVersions(databaseUrl, seller.userId, 'ledger');
  expect(diffVersions(ledger, storedLedger)).toEqual(none);
  expect(storedLedger.size).toBe(ledger.size);
  const orders = await oracle.printifyOrders();
  const storedOrders = await storedVersions(databaseUrl, seller.userId, 'printify');
  expect(diffVersions(orders, storedOrders)).toEqual(none);
  expect(storedOrders.size).toBe(orders.size);
  expect(await duplicateKeys(databaseUrl, seller.userId)).toEqual([]);
}
