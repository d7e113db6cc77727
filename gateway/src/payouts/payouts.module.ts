import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PayoutsController } from './payouts.controller';
import { PayoutsService } from './payouts.service';

/** GET /api/payouts: the user's Etsy deposits, reconciled (docs/adr/0027). */
@Module({
  imports: [AuthModule],
  controllers: [PayoutsController],
  providers: [PayoutsService],
})
export class PayoutsModule {}
