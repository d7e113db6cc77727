/**
 * What a seller reads when connecting a provider goes wrong. The gateway answers with these
 * and the web app checks the same things before asking it, so both import them from here
 * (web: the Connections screen); product-spec §5 and §8 fix the wording.
 */
export type ProviderLabel = 'Etsy' | 'Printify';

export const PROVIDER_MESSAGES = {
  emptyPrintifyToken: 'Please enter your Printify API token',
  invalidPrintifyToken: 'Invalid Printify API token. Please check and try again.',
  selectPrintifyShop: 'Please select a shop',
  providerBusy: (provider: ProviderLabel, retryAfterSeconds: number) =>
    `${provider} is busy right now. Please try again in ${retryAfterSeconds} seconds.`,
  providerUnavailable: (provider: ProviderLabel) => `${provider} did not answer. Please try again.`,
} as const;
