import { Controller, Get } from '@nestjs/common';
import { AppConfig, effectiveProviders } from '@pod/config';
import type { PublicConfig } from '@pod/contracts';
import { Public } from '../auth/public.decorator';

/** What the signed-out web app needs to know about this deployment. */
@Controller('public')
export class PublicConfigController {
  constructor(private readonly config: AppConfig) {}

  @Public()
  @Get('config')
  get(): PublicConfig {
    const providers = effectiveProviders(this.config);
    return {
      supportEmail: this.config.SUPPORT_EMAIL,
      // Without real Etsy credentials the product runs against the sandbox and offers the demo.
      demoEnabled: providers.mode === 'sandbox',
      // The same value the Etsy connect flow sends, so the help card names what to register.
      etsyRedirectUri: providers.etsy.redirectUri,
    };
  }
}
