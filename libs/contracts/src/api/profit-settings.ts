/** How Printify's line `cost` is read: per unit (× quantity) or already for the whole line. */
export type PrintifyCostReading = 'per_unit' | 'per_line';

/**
 * GET and PATCH /api/profit-settings: the settings the profit figures depend on (ADR 0026), per
 * user and their connected shop. A setting of a provider not connected reads as its default and
 * cannot be changed (409 not_connected).
 */
export interface ProfitSettingsResponse {
  /** The Etsy seller is VAT-registered: VAT on Etsy's fees is reclaimed, not a cost. */
  vatRegistered: boolean;
  printifyCostReading: PrintifyCostReading;
  etsyConnected: boolean;
  printifyConnected: boolean;
  /** PATCH only: the orders are being figured again with the new settings. */
  recalculating?: boolean;
}

/** PATCH /api/profit-settings: either field, or both. */
export interface UpdateProfitSettingsRequest {
  vatRegistered?: boolean;
  printifyCostReading?: PrintifyCostReading;
}
