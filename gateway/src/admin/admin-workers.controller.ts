import { Controller, Get, UseGuards } from '@nestjs/common';
import { Public } from '../auth/public.decorator';
import { AdminWorkersService, type QueueWorkersView } from './admin-workers.service';
import { OperatorGuard } from './operator.guard';

/** Operator view of the workers. @Public() lifts the seller-session guard; OperatorGuard takes over. */
@Public()
@UseGuards(OperatorGuard)
@Controller('admin/workers')
export class AdminWorkersController {
  constructor(private readonly workers: AdminWorkersService) {}

  @Get()
  list(): Promise<QueueWorkersView[]> {
    return this.workers.overview();
  }
}
