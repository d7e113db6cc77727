import { Controller, Get } from '@nestjs/common';
import { AppConfig } from '@pod/config';
import { Public } from '../auth/public.decorator';

/** What the signed-out web app needs to know about this deployment. */
@Controller('public')
export class PublicConfigController {
  constructor(private readonly config: AppConfig) {}

  @Public()
  @Get('config')
  get() {
    return { supportEmail: this.config.SUPPORT_EMAIL, demoEnabled: false };
  }
}
