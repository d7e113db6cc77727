import { Body, Controller, Get, Patch } from '@nestjs/common';
import type { ProfitSettingsResponse } from '@pod/contracts';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { UpdateProfitSettingsDto } from './dto/profit-settings.dto';
import { ProfitSettingsService } from './profit-settings.service';

/** The Settings page's "Profit settings" card: GET and PATCH /api/profit-settings (ADR 0026). */
@Controller('profit-settings')
export class ProfitSettingsController {
  constructor(private readonly settings: ProfitSettingsService) {}

  @Get()
  read(@CurrentUser() user: SignedInUser): Promise<ProfitSettingsResponse> {
    return this.settings.read(user.id);
  }

  @Patch()
  update(@CurrentUser() user: SignedInUser, @Body() dto: UpdateProfitSettingsDto): Promise<ProfitSettingsResponse> {
    return this.settings.update(user.id, dto);
  }
}
