import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { IMMUTABLE_CACHE, REVALIDATE_CACHE } from '../src/http/static-web';
import { GatewayTestBed, type TestGateway } from './support/test-gateway';

// The fixture build (support/web-dist) holds assets/app.js with its precompressed siblings
// app.js.br and app.js.gz (as the web build writes them) and a stray app.js.map.
const ORIGINAL = readFileSync('gateway/test/support/web-dist/assets/app.js', 'utf8');

const bed = new GatewayTestBed();
let gw: TestGateway;
beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
});
afterAll(() => bed.tearDown());

const get = (url: string, headers: Record<string, string> = {}) => gw.app.inject({ method: 'GET', url, headers });

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(String(headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
  expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  expect(headers['x-content-type-options']).toBe('nosniff');
}

describe('the built web app on the wire', () => {
  it('sends the brotli file to a browser that accepts br, with Vary and the immutable cache', async () => {
    const response = await get('/assets/app.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(brotliDecompressSync(response.rawPayload).toString('utf8')).toBe(ORIGINAL);
    expectSecurityHeaders(response.headers);
  });

  it('falls back to gzip, then to the original, by Accept-Encoding', async () => {
    const gzip = await get('/assets/app.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(ORIGINAL);
    expect(gzip.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expectSecurityHeaders(gzip.headers);

    const identity = await get('/assets/app.js', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(ORIGINAL);
    // The plain answer varies on Accept-Encoding too, so a shared cache never hands it to a br client.
    expect(String(identity.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('sends the SPA fallback (index.html for client routes) compressed too', async () => {
    const plain = await get('/connections', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/connections', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expectSecurityHeaders(br.headers);
    const gzip = await get('/', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('revalidates index.html and the SPA fallback every time', async () => {
    const index = await get('/index.html', { 'accept-encoding': 'br' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe(REVALIDATE_CACHE);
    const clientRoute = await get('/connections');
    expect(clientRoute.statusCode).toBe(200);
    expect(clientRoute.headers['cache-control']).toBe(REVALIDATE_CACHE);
    expect(clientRoute.body).toContain('<div id="root">');
    expectSecurityHeaders(clientRoute.headers);
  });

  it('never serves source maps, nor the compressed files under their own names', async () => {
    for (const url of ['/assets/app.js.map', '/assets/app.js.br', '/assets/app.js.gz']) {
      const response = await get(url);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      expect(response.body).not.toContain('private source');
      expectSecurityHeaders(response.headers);
    }
  });
});
