import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { queueRegistration } from '@pod/queue';
import { MatcherProcessor } from './matcher.processor';

@Module({
  imports: [BullModule.registerQueue(queueRegistration('matcher'))],
  providers: [MatcherProcessor],
})
export class MatcherModule {}
