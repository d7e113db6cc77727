import { ConnectionEvents } from './connection-events';
import { HttpException } from '@nestjs/common';
import type { PinoLogger } from 'nestjs-pino';
import type { ConnectionsRepository } from '@pod/db';
import { AuthError, MalformedResponseError, RateLimitedError, TransportError, UpstreamError } from '@pod/integrations';
import type { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';
import type { SignedInUser } from '../auth/signed-in-user';
import { PrintifyConnectService } from './printify-connect.service';
import type { PrintifyPort, PrintifyShop } from './provider-ports';

const user = { id: 'user-1', sessionIdHash: 's' } as SignedInUser;
const logger = { setContext: jest.fn(), info: jest.fn(), warn: jest.fn() } as unknown as PinoLogger;

function newTestService(listShops: PrintifyPort['listShops']) {
  const connections = {
    savePrintify: jest.fn(async () => undefined),
    readPrintifyToken: jest.fn(async () => null as unknown),
    listForUser: jest.fn(async () => []),
    markStatus: jest.fn(async () => undefined),
  };
  const throttle = { assertTokenCheckAllowed: jest.fn(async () => undefined) };
  const sut = new PrintifyConnectService(
    { listShops },
    connections as unknown as ConnectionsRepository,
    new ConnectionEvents(),
    throttle as unknown as AbuseThrottleService,
    logger,
  );
  return { sut, connections, throttle };
}

const shops: PrintifyShop[] = [{ id: '11', title: 'Tees', salesChannel: 'etsy' }];

async function statusOf(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpException)
      return [error.getStatus(), String((error.getResponse() as { message?: string }).message ?? error.getResponse())];
    throw error;
  }
  throw new Error('expected an HttpException');
}

describe('PrintifyConnectService', () => {
  it('treats a token that sees no shops as invalid', async () => {
    const { sut } = newTestService(async () => []);
    await expect(sut.validate(user, 't')).rejects.toMatchObject({
      code: 'printify_token_invalid',
      status: 400,
      message: 'Invalid Printify API token. Please check and try again.',
    });
  });

  it.each<[string, unknown, number, string]>([
    [
      'a refused token',
      new AuthError('printify', 'printify: 401'),
      400,
      'Invalid Printify API token. Please check and try again.',
    ],
    [
      'a rate limit',
      new RateLimitedError(4_200, 'minute', 'printify', 'printify: 429'),
      429,
      'Printify is busy right now. Please try again in 5 seconds.',
    ],
    [
      'an outage',
      new UpstreamError('printify', 503, 'printify: HTTP 503'),
      503,
      'Printify did not answer. Please try again.',
    ],
    [
      'a timeout',
      new TransportError('printify', 'printify: timeout', 'headers_timeout'),
      503,
      'Printify did not answer. Please try again.',
    ],
    [
      'anything else from the client',
      new MalformedResponseError('printify', 'printify: malformed'),
      502,
      'Printify did not answer. Please try again.',
    ],
  ])('maps %s to %i', async (_label, failure, status, message) => {
    const { sut } = newTestService(async () => Promise.reject(failure));
    expect(await statusOf(sut.validate(user, 't'))).toEqual([status, message]);
  });

  it("stores nothing when the shop is not one of the token's", async () => {
    const { sut, connections } = newTestService(async () => shops);
    await expect(sut.connect(user, { token: 't', shopId: '12' })).rejects.toMatchObject({
      code: 'printify_shop_required',
      status: 400,
      message: 'Please select a shop',
    });
    expect(connections.savePrintify).not.toHaveBeenCalled();
  });

  it('stores the token with the chosen shop, a one-year expiry and an account key that is not the token', async () => {
    const { sut, connections } = newTestService(async () => shops);
    const now = new Date('2026-11-22T12:00:00Z');
    await sut.connect(user, { token: 'secret-token', shopId: '11', syncFromDate: '2026-01-01' }, now);
    const saved = (connections.savePrintify.mock.calls[0] as unknown[])[0] as Record<string, unknown>;
    expect(saved).toMatchObject({
      userId: 'user-1',
      shopId: '11',
      shopTitle: 'Tees',
      salesChannel: 'etsy',
      syncFrom: '2026-01-01',
      token: 'secret-token',
    });
    expect((saved.tokenExpiresAt as Date).toISOString()).toBe('2027-11-22T12:00:00.000Z');
    expect(String(saved.accountKey)).not.toContain('secret-token');
  });

  it('answers 404 without a connection and 409 (marking it expired) when Printify refuses the stored token', async () => {
    const { sut, connections } = newTestService(async () => Promise.reject(new AuthError('printify', 'printify: 401')));
    await expect(sut.shopsOfConnection(user)).rejects.toMatchObject({ code: 'printify_not_connected', status: 404 });
    connections.readPrintifyToken.mockResolvedValueOnce({
      token: 't',
      connection: { status: 'connected', externalAccountId: 'shops:x' },
    });
    await expect(sut.shopsOfConnection(user)).rejects.toMatchObject({ code: 'printify_token_invalid', status: 409 });
    expect(connections.markStatus).toHaveBeenCalledWith('user-1', 'printify', 'expired');
  });
});
