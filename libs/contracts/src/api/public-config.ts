/** GET /api/public/config: what the signed-out web app needs to know about this deployment. */
export interface PublicConfig {
  supportEmail: string;
  /** True without real Etsy credentials: the product runs against the sandbox and offers the demo. */
  demoEnabled: boolean;
  /** The Etsy callback URL the gateway sends to Etsy; the Etsy app must list it exactly as a redirect URI. */
  etsyRedirectUri: string;
}
