import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { EnqueuedJob, JobView, QueueName, QueueOverview } from '@pod/contracts';
import { Public } from '../auth/public.decorator';
import { AdminQueuesService } from './admin-queues.service';
import { EnqueueJobDto } from './dto/enqueue-job.dto';
import { OperatorGuard } from './operator.guard';
import { JobIdPipe, QueueNamePipe } from './queue-params.pipe';

/** Operator view of the queues. @Public() lifts the seller-session guard; OperatorGuard takes over. */
@Public()
@UseGuards(OperatorGuard)
@Controller('admin/queues')
export class AdminQueuesController {
  constructor(private readonly admin: AdminQueuesService) {}

  @Get()
  list(): Promise<QueueOverview[]> {
    return this.admin.overview();
  }

  @Post(':queue/jobs')
  @HttpCode(202)
  enqueue(@Param('queue', QueueNamePipe) queue: QueueName, @Body() body: EnqueueJobDto): Promise<EnqueuedJob> {
    return this.admin.enqueue(queue, body.name);
  }

  @Get(':queue/jobs/:id')
  job(@Param('queue', QueueNamePipe) queue: QueueName, @Param('id', JobIdPipe) id: string): Promise<JobView> {
    return this.admin.job(queue, id);
  }

  @Post(':queue/pause')
  @HttpCode(200)
  pause(@Param('queue', QueueNamePipe) queue: QueueName) {
    return this.admin.setPaused(queue, true);
  }

  @Post(':queue/resume')
  @HttpCode(200)
  resume(@Param('queue', QueueNamePipe) queue: QueueName) {
    return this.admin.setPaused(queue, false);
  }

  @Post(':queue/retry-failed')
  @HttpCode(202)
  retryFailed(@Param('queue', QueueNamePipe) queue: QueueName) {
    return this.admin.retryFailed(queue);
  }
}
