import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '@pod/contracts';
import { shortReason, WarningThrottle } from '@pod/queue';

/** The gateway's BullMQ Queue instances by name (one per contract row). */
@Injectable()
export class QueueRegistry implements OnModuleInit {
  private readonly logger = new Logger(QueueRegistry.name);
  private readonly queues = new Map<QueueName, Queue>();

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const name of QUEUE_NAMES) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      // Without a listener BullMQ prints every reconnect failure; requests report outages as 503s.
      const warnings = new WarningThrottle(30_000);
      queue.on('error', (error) => {
        const suppressed = warnings.take();
        if (suppressed !== null)
          this.logger.warn(`Queue ${name}: ${shortReason(error)} (${suppressed} similar suppressed)`);
      });
      this.queues.set(name, queue);
    }
  }

  get(name: QueueName): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`Queue ${name} is not registered`);
    return queue;
  }
}
