import { IsString, Length } from 'class-validator';

export class EnqueueJobDto {
  /** A job name of the queue's contract that an operator may enqueue (today: "ping"). */
  @IsString()
  @Length(1, 100)
  name: string;
}
