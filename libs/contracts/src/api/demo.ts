import type { PrintifyShopView } from './connections';

/** GET /api/demo/sandbox (demo mode): the visitor's own sandbox seller. */
export interface DemoSandbox {
  shopName: string;
  /** A sandbox value the visitor may paste to reconnect Printify (not a secret of anyone's). */
  printifyToken: string;
  printifyShops: PrintifyShopView[];
}
