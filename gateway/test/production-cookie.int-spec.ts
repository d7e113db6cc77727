import { GatewayTestBed, register, uniqueEmail } from './support/test-gateway';

// Its own file: passport keeps one global strategy per name, so a production-mode gateway
// (other cookie name) must not share a module registry with development-mode ones.
const bed = new GatewayTestBed();
beforeAll(() => bed.setUp());
afterAll(() => bed.tearDown());

it('sets a __Host-, Secure, HttpOnly, SameSite=Lax cookie with no Domain in production (item 20)', async () => {
  const prod = await bed.start({ NODE_ENV: 'production' });
  const response = await register(prod.app, uniqueEmail('prod'));
  const cookie = String(response.headers['set-cookie']);
  expect(cookie).toMatch(/^__Host-podprofit_session=/);
  expect(cookie).toMatch(/; Path=\//);
  expect(cookie).toMatch(/; HttpOnly/);
  expect(cookie).toMatch(/; Secure/);
  expect(cookie).toMatch(/; SameSite=Lax/);
  expect(cookie).not.toMatch(/Domain=/i);
  const me = await prod.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: cookie.split(';')[0] } });
  expect(me.statusCode).toBe(200);
  // The known-device cookie (sign-in throttling) follows the same rules, Strict as only sign-in needs it.
  const device = [response.headers['set-cookie']].flat().find((c) => String(c).startsWith('__Host-podprofit_device='));
  expect(device).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
  expect(device).not.toMatch(/Domain=/i);
});

it('refuses to start in production without APP_SECRET', async () => {
  const { loadConfig } = await import('@pod/config');
  expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET is required/);
  expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: 'too-short' })).toThrow(/at least 32 characters/);
});
