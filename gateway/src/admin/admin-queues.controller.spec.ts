import pino from 'pino';
import { AllExceptionsFilter } from '../http/all-exceptions.filter';
import { ApiException } from '../http/api-exception';
import { createValidationPipe } from '../http/validation-pipe';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { AppConfig } from '@pod/config';
import { LastCompletionStore } from '../events/last-completion.store';
import { QueueProducer } from '../queues/queue-producer';
import { QueueRegistry } from '../queues/queue-registry';
import { AdminQueuesController } from './admin-queues.controller';
import { AdminQueuesService } from './admin-queues.service';
import { OperatorGuard } from './operator.guard';
import { OperatorThrottle } from './operator-throttle';

const TOKEN = 'operator-token-0123456789';

/** The operator routes over Fastify's in-memory inject, with Redis replaced by mocks. */
async function newTestApp(operatorToken: string | undefined) {
  const mocks = {
    enqueue: jest.fn().mockResolvedValue({ id: '12', queue: 'matcher', name: 'ping' }),
    getJob: jest.fn(),
    getJobState: jest.fn().mockResolvedValue('failed'),
  };
  const moduleRef = await Test.createTestingModule({
    controllers: [AdminQueuesController],
    providers: [
      AdminQueuesService,
      OperatorGuard,
      // The per-address throttle (Redis) has its own test: gateway/test/operator-throttle.int-spec.ts.
      {
        provide: OperatorThrottle,
        useValue: {
          assertAllowed: jest.fn().mockResolvedValue(undefined),
          recordRejected: jest.fn().mockResolvedValue(undefined),
        },
      },
      { provide: AppConfig, useValue: Object.assign(new AppConfig(), { OPERATOR_TOKEN: operatorToken }) },
      { provide: QueueProducer, useValue: { enqueue: mocks.enqueue } },
      { provide: QueueRegistry, useValue: { get: () => ({ getJob: mocks.getJob, getJobState: mocks.getJobState }) } },
      { provide: LastCompletionStore, useValue: { readAll: jest.fn() } },
    ],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(pino({ enabled: false })));
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return { app, mocks };
}

const auth = { authorization: `Bearer ${TOKEN}` };

describe('operator queue routes', () => {
  let app: NestFastifyApplication;
  afterEach(async () => app?.close());

  it('answer 404 everywhere when OPERATOR_TOKEN is unset, as if absent', async () => {
    ({ app } = await newTestApp(undefined));
    const response = await app.inject({ method: 'GET', url: '/api/admin/queues', headers: auth });
    expect(response.statusCode).toBe(404);
  });

  it.each([
    ['no credential', {}],
    ['a wrong token', { authorization: 'Bearer operator-token-wrong-000000' }],
    ['a seller session cookie', { cookie: 'pp_session=eyJhbGciOiJIUzI1NiJ9.x.y' }],
  ])('answer 401 to %s', async (_, headers) => {
    ({ app } = await newTestApp(TOKEN));
    const response = await app.inject({ method: 'GET', url: '/api/admin/queues/matcher/jobs/1', headers });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Operator credential required',
      code: 'operator_credential_required',
    });
  });

  it('enqueue a ping with 202 and the job id', async () => {
    let mocks;
    ({ app, mocks } = await newTestApp(TOKEN));
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/queues/matcher/jobs',
      headers: auth,
      payload: { name: 'ping' },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ id: '12', queue: 'matcher', name: 'ping' });
    expect(mocks.enqueue).toHaveBeenCalledWith('matcher', 'ping', expect.objectContaining({ requestedBy: 'operator' }));
  });

  it('refuse unknown job names (400), unknown queues (404) and extra fields (400)', async () => {
    ({ app } = await newTestApp(TOKEN));
    const unknownJob = await app.inject({
      method: 'POST',
      url: '/api/admin/queues/matcher/jobs',
      headers: auth,
      payload: { name: 'drop-tables' },
    });
    expect(unknownJob.statusCode).toBe(400);
    expect(unknownJob.json().message).toMatch(/an operator can enqueue: ping/);
    const unknownQueue = await app.inject({
      method: 'POST',
      url: '/api/admin/queues/nope/jobs',
      headers: auth,
      payload: { name: 'ping' },
    });
    expect(unknownQueue.statusCode).toBe(404);
    expect(unknownQueue.json().message).toBe('Queue not found');
    const extra = await app.inject({
      method: 'POST',
      url: '/api/admin/queues/matcher/jobs',
      headers: auth,
      payload: { name: 'ping', data: {} },
    });
    expect(extra.statusCode).toBe(400);
  });

  it('pass the producer 503 through when Redis refuses', async () => {
    let mocks;
    ({ app, mocks } = await newTestApp(TOKEN));
    mocks.enqueue.mockRejectedValue(
      new ApiException(503, 'service_unavailable', 'The job queue is unavailable; try again shortly.'),
    );
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/queues/matcher/jobs',
      headers: auth,
      payload: { name: 'ping' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe('The job queue is unavailable; try again shortly.');
  });

  it('report a job with a redacted failure reason, or 404 when there is none', async () => {
    let mocks;
    ({ app, mocks } = await newTestApp(TOKEN));
    mocks.getJob.mockResolvedValueOnce({
      id: '3',
      name: 'ping',
      returnvalue: null,
      failedReason: 'upstream said token=abc',
      attemptsMade: 1,
      finishedOn: 1_700_000_000_000,
    });
    const found = await app.inject({ method: 'GET', url: '/api/admin/queues/matcher/jobs/3', headers: auth });
    expect(found.json()).toEqual({
      id: '3',
      name: 'ping',
      state: 'failed',
      result: null,
      failedReason: 'upstream said token=[redacted]',
      attemptsMade: 1,
      finishedOn: 1_700_000_000_000,
    });
    mocks.getJobState.mockResolvedValueOnce('unknown');
    expect(
      (await app.inject({ method: 'GET', url: '/api/admin/queues/matcher/jobs/4', headers: auth })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: '/api/admin/queues/matcher/jobs/..%2F..', headers: auth })).statusCode,
    ).toBe(404);
  });
});
