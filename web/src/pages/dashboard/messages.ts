// Texts of the Dashboard's "Sync & Match Orders" card that the spec fixes (§2, §8) or a test names.
export const SYNC_MSG = {
  etsyStarted: 'Etsy orders sync initiated',
  printifyStarted: 'Printify orders sync initiated',
  etsyFailed: 'Failed to sync Etsy orders',
  printifyFailed: 'Failed to sync Printify orders',
} as const;
