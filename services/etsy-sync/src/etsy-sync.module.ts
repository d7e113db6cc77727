import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { queueRegistration } from '@pod/queue';
import { EtsySyncProcessor } from './etsy-sync.processor';

@Module({
  imports: [BullModule.registerQueue(queueRegistration('etsy-sync'))],
  providers: [EtsySyncProcessor],
})
export class EtsySyncModule {}
