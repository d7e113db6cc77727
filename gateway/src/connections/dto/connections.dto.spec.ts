import { BadRequestException } from '@nestjs/common';
import { createValidationPipe } from '../../http/validation-pipe';
import { ConnectPrintifyDto, DisconnectableServicePipe, PrintifyTokenDto } from './connections.dto';
import { checkSyncFromDate } from '../sync-from-date';

// The gateway's global pipe.
const pipe = createValidationPipe();

async function validate<T>(metatype: new () => T, value: unknown): Promise<T | string> {
  try {
    return (await pipe.transform(value, { type: 'body', metatype })) as T;
  } catch (error) {
    const response = (error as BadRequestException).getResponse() as { message: string[] | string };
    return [response.message].flat().join('; ');
  }
}

describe('PrintifyTokenDto', () => {
  it.each([
    [{}, 'Please enter your Printify API token'],
    [{ token: '' }, 'Please enter your Printify API token'],
    [{ token: ' \n\t ' }, 'Please enter your Printify API token'],
    [{ token: null }, 'Please enter your Printify API token'],
    [{ token: ['abc'] }, 'Please enter your Printify API token'],
    [{ token: { value: 'abc' } }, 'Please enter your Printify API token'],
    [{ token: 'abc', role: 'admin' }, 'property role should not exist'],
  ])('refuses %j', async (body, message) => {
    expect(await validate(PrintifyTokenDto, body)).toBe(message);
  });

  it.each([
    ['CR/LF', 'abc\r\nX-Injected: 1'],
    ['a space', 'abc def'],
    ['a euro sign', 'abc€def'],
    ['NUL', 'abc\u0000def'],
    ['an unpaired surrogate', 'abc\ud800def'],
  ])('answers a token with %s as an invalid token (it cannot travel in a header)', async (_label, token) => {
    expect(await validate(PrintifyTokenDto, { token })).toBe('Invalid Printify API token. Please check and try again.');
  });

  it('refuses a token over 4 KiB', async () => {
    expect(await validate(PrintifyTokenDto, { token: 'x'.repeat(4097) })).toBe('The Printify API token is too long');
  });

  it('trims the token', async () => {
    expect(await validate(PrintifyTokenDto, { token: '  abc.def \n' })).toEqual({ token: 'abc.def' });
  });
});

describe('ConnectPrintifyDto', () => {
  it.each([
    [{ token: 't' }, 'Please select a shop'],
    [{ token: 't', shopId: '' }, 'Please select a shop'],
    [{ token: 't', shopId: null }, 'Please select a shop'],
    [{ token: 't', shopId: -1 }, 'Please select a shop'],
    [{ token: 't', shopId: 1.5 }, 'Please select a shop'],
    [{ token: 't', shopId: '12abc' }, 'Please select a shop'],
    [{ token: 't', shopId: '1e3' }, 'Please select a shop'],
    [{ token: 't', shopId: 1, syncFromDate: '2025-1-5' }, 'Please enter the sync start date as YYYY-MM-DD'],
    [{ token: 't', shopId: 1, syncFromDate: 20250105 }, 'Please enter the sync start date as YYYY-MM-DD'],
  ])('refuses %j', async (body, message) => {
    expect(await validate(ConnectPrintifyDto, body)).toBe(message);
  });

  it('accepts numeric and digit-string shop ids, and an empty date as "all orders"', async () => {
    expect(await validate(ConnectPrintifyDto, { token: ' t ', shopId: 8675309 })).toEqual({
      token: 't',
      shopId: '8675309',
    });
    expect(await validate(ConnectPrintifyDto, { token: 't', shopId: ' 42 ', syncFromDate: '  ' })).toEqual({
      token: 't',
      shopId: '42',
    });
    expect(await validate(ConnectPrintifyDto, { token: 't', shopId: '42', syncFromDate: '2025-03-01' })).toEqual({
      token: 't',
      shopId: '42',
      syncFromDate: '2025-03-01',
    });
  });
});

describe('checkSyncFromDate', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  it('passes absent dates and real past dates, up to "today" in the zone furthest ahead', () => {
    expect(checkSyncFromDate(undefined, now)).toBeNull();
    expect(checkSyncFromDate('2024-02-29', now)).toBe('2024-02-29');
    expect(checkSyncFromDate('2026-11-22', now)).toBe('2026-11-22');
    // 10:00 UTC is already 00:00 on the 23rd at UTC+14.
    expect(checkSyncFromDate('2026-11-23', now)).toBe('2026-11-23');
  });

  it.each([
    ['2026-11-24', 'The sync start date cannot be in the future'],
    ['2025-02-29', 'Please enter a valid sync start date'],
    ['2025-13-01', 'Please enter a valid sync start date'],
    ['2025-00-10', 'Please enter a valid sync start date'],
    ['1999-12-31', 'The sync start date cannot be before 2000-01-01'],
  ])('refuses %s', (value, message) => {
    expect(() => checkSyncFromDate(value, now)).toThrow(message);
  });
});

describe('DisconnectableServicePipe', () => {
  it('passes etsy and printify; anything else is 404', () => {
    const pipe = new DisconnectableServicePipe();
    expect(pipe.transform('etsy')).toBe('etsy');
    expect(pipe.transform('printify')).toBe('printify');
    for (const bad of ['all2', 'ETSY', 'shopify', '__proto__', ''])
      expect(() => pipe.transform(bad)).toThrow(expect.objectContaining({ code: 'not_found', status: 404 }));
  });
});
