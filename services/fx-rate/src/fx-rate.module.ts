import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { queueRegistration } from '@pod/queue';
import { FxRateProcessor } from './fx-rate.processor';

@Module({
  imports: [BullModule.registerQueue(queueRegistration('fx-rate'))],
  providers: [FxRateProcessor],
})
export class FxRateModule {}
