import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProfitSettingsController } from './profit-settings.controller';
import { ProfitSettingsService } from './profit-settings.service';

/** The seller's profit settings: GET and PATCH /api/profit-settings. */
@Module({
  imports: [AuthModule],
  controllers: [ProfitSettingsController],
  providers: [ProfitSettingsService],
})
export class ProfitSettingsModule {}
