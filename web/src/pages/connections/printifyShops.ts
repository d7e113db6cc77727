import type { EtsyConnectionStatus, PrintifyShopView } from '@pod/contracts';

// Printify names a shop's sales channel by the channel's name, or "disconnected" when the shop
// has none; the exact string for Etsy is not documented, so both compare case-insensitively.
const channel = (shop: PrintifyShopView) => shop.sales_channel.trim().toLowerCase();
const isDisconnected = (shop: PrintifyShopView) => channel(shop) === 'disconnected';
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The shops in Printify's order, except that shops without a sales channel come last. */
export function shopsForChoice(shops: PrintifyShopView[]): PrintifyShopView[] {
  return [...shops.filter((shop) => !isDisconnected(shop)), ...shops.filter(isDisconnected)];
}

/**
 * The shop to choose for the seller, or '' to let them choose: the only shop; else, with Etsy
 * connected, the Printify shop selling on Etsy under the Etsy shop's name, or the only one
 * selling on Etsy.
 */
export function preselectedShopId(shops: PrintifyShopView[], etsy: EtsyConnectionStatus | undefined): string {
  if (shops.length === 1) return String(shops[0].id);
  if (!etsy?.connected) return '';
  const onEtsy = shops.filter((shop) => channel(shop) === 'etsy');
  const named = etsy.shopName ? onEtsy.find((shop) => sameName(shop.title, etsy.shopName ?? '')) : undefined;
  const linked = named ?? (onEtsy.length === 1 ? onEtsy[0] : undefined);
  return linked ? String(linked.id) : '';
}
