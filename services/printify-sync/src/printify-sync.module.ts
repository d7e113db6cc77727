import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { queueRegistration } from '@pod/queue';
import { PrintifySyncProcessor } from './printify-sync.processor';

@Module({
  imports: [BullModule.registerQueue(queueRegistration('printify-sync'))],
  providers: [PrintifySyncProcessor],
})
export class PrintifySyncModule {}
