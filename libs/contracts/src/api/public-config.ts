/** GET /api/public/config: what the signed-out web app needs to know about this deployment. */
export interface PublicConfig {
  supportEmail: string;
  /** True without real Etsy credentials: the product runs against the sandbox and offers the demo. */
  demoEnabled: boolean;
}
