import { HttpStatus, Injectable, type PipeTransform } from '@nestjs/common';
import { isQueueName, type QueueName } from '@pod/contracts';
import { ApiException } from '../http/api-exception';

/** `:queue` must name a queue of the contract table; anything else is 404. */
@Injectable()
export class QueueNamePipe implements PipeTransform<string, QueueName> {
  transform(value: string): QueueName {
    if (!isQueueName(value)) throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Queue not found');
    return value;
  }
}

/** BullMQ job ids are short tokens; anything else cannot exist, so 404 without asking Redis. */
@Injectable()
export class JobIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/^[A-Za-z0-9:_-]{1,100}$/.test(value))
      throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Job not found');
    return value;
  }
}
