import { TEST_OPERATOR_TOKEN } from '@pod/testing';
import { BULL_BOARD_PATH } from '../src/admin/bull-board';
import { OPERATOR_FAILURE_LIMIT } from '../src/admin/operator-throttle';
import { GatewayTestBed, ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * Wrong operator tokens, on the JSON operator routes and on Bull Board (bearer or its sign-in
 * form), count against the client's address (in Redis, so across replicas): past a few, every
 * operator request from that address — the right token included — answers 429 with
 * Retry-After, while other addresses are unaffected. Each wrong token is logged at WARN with
 * the address, never with what was presented.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let replica: TestGateway;
const WRONG = 'wrong-operator-token-guess-0001';
const right = { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` };

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  replica = await bed.start();
});
afterAll(() => bed.tearDown());

const api = (app: TestGateway, remoteAddress: string, headers: Record<string, string>) =>
  app.app.inject({ method: 'GET', url: '/api/admin/queues', headers, remoteAddress });
const boardApi = (app: TestGateway, remoteAddress: string, headers: Record<string, string>) =>
  app.app.inject({ method: 'GET', url: `${BULL_BOARD_PATH}/api/queues`, headers, remoteAddress });
const boardLogin = (app: TestGateway, remoteAddress: string, token: string) =>
  app.app.inject({
    method: 'POST',
    url: `${BULL_BOARD_PATH}/login`,
    headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `token=${encodeURIComponent(token)}`,
    remoteAddress,
  });

function logEvents(app: TestGateway, event: string): Array<Record<string, unknown>> {
  return app.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.event === event);
}

describe('wrong operator tokens', () => {
  it('are throttled per address on the operator routes: 429 with Retry-After once used up, even for the right token, across replicas', async () => {
    const address = '203.0.113.10';
    for (let i = 0; i < OPERATOR_FAILURE_LIMIT.max; i++) {
      // Alternate replicas: the count lives in Redis.
      const response = await api(i % 2 ? replica : gw, address, { authorization: `Bearer ${WRONG}` });
      expect(response.statusCode).toBe(401);
    }
    for (const headers of [{ authorization: `Bearer ${WRONG}` }, right]) {
      const refused = await api(gw, address, headers);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'too_many_attempts' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(OPERATOR_FAILURE_LIMIT.windowSeconds - 60);
      expect(retryAfter).toBeLessThanOrEqual(OPERATOR_FAILURE_LIMIT.windowSeconds);
    }
    // The same address is refused on the board too; another address is not.
    expect((await boardApi(replica, address, right)).statusCode).toBe(429);
    expect((await api(gw, '203.0.113.11', right)).statusCode).toBe(200);
    // No credential at all is not a guess: it does not count.
    for (let i = 0; i < OPERATOR_FAILURE_LIMIT.max + 2; i++)
      expect((await api(gw, '203.0.113.12', {})).statusCode).toBe(401);
    expect((await api(gw, '203.0.113.12', right)).statusCode).toBe(200);
  });

  it('are throttled per address on Bull Board, by bearer and through its sign-in form', async () => {
    const address = '198.51.100.20';
    for (let i = 0; i < OPERATOR_FAILURE_LIMIT.max; i++) {
      const response =
        i % 2
          ? await boardLogin(gw, address, WRONG)
          : await boardApi(gw, address, { authorization: `Bearer ${WRONG}` });
      expect(response.statusCode).toBe(401);
    }
    const form = await boardLogin(gw, address, TEST_OPERATOR_TOKEN);
    expect(form.statusCode).toBe(429);
    expect(Number(form.headers['retry-after'])).toBeGreaterThan(0);
    expect(form.json()).toMatchObject({ code: 'too_many_attempts' });
    expect((await boardApi(gw, address, right)).statusCode).toBe(429);
    expect((await api(gw, address, right)).statusCode).toBe(429);
    expect((await boardLogin(gw, '198.51.100.21', TEST_OPERATOR_TOKEN)).statusCode).toBe(303);
  });

  it('are logged at WARN with the address and the surface, never with the token presented', () => {
    const rejected = [
      ...logEvents(gw, 'operator.credential_rejected'),
      ...logEvents(replica, 'operator.credential_rejected'),
    ];
    expect(rejected.length).toBe(2 * OPERATOR_FAILURE_LIMIT.max);
    for (const entry of rejected)
      expect(entry).toMatchObject({
        level: 'warn',
        ip: expect.stringMatching(/^(203\.0\.113\.10|198\.51\.100\.20)$/),
        surface: expect.stringMatching(/^(api|bull-board)$/),
      });
    expect(logEvents(gw, 'operator.throttled').length).toBeGreaterThan(0);
    for (const entry of logEvents(gw, 'operator.throttled')) expect(entry.level).toBe('warn');
    for (const app of [gw, replica]) expect(app.logs.join('\n')).not.toContain(WRONG);
  });
});
