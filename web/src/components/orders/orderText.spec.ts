/// <reference types="jest" />
import { ApiError } from '../../hooks/api/client';
import { changeErrorText, extraPrintifyText, loadErrorText } from './orderText';

const apiError = (status: number, code: string, message: string) =>
  new ApiError(status, '', JSON.stringify({ statusCode: status, code, message }));

describe('order change errors the seller sees', () => {
  it("shows the server's reason when a match run holds the orders or the seller sent too much at once", () => {
    const busy = apiError(409, 'matching_in_progress', 'Matching is running for your orders; try again in a moment.');
    expect(changeErrorText(busy, 'The order could not be archived.')).toBe(
      'Matching is running for your orders; try again in a moment.',
    );
    const tooMany = apiError(429, 'too_many_requests', 'Too many requests at once; try again in a moment.');
    expect(changeErrorText(tooMany, 'The order could not be archived.')).toBe(
      'Too many requests at once; try again in a moment.',
    );
  });

  it('keeps the fallback for failures that are not the seller’s to act on', () => {
    expect(changeErrorText(apiError(500, 'internal', 'x'), 'The order could not be archived.')).toBe(
      'The order could not be archived.',
    );
  });

  it('says to wait when a load is refused for too many requests', () => {
    expect(loadErrorText(apiError(429, 'too_many_requests', 'x'))).toMatch(/wait a moment/);
    expect(loadErrorText(apiError(503, 'service_busy', 'x'))).toBe(
      'Service busy, retrying: the orders load as soon as it answers.',
    );
  });
});

describe('extraPrintifyText (issue 17)', () => {
  const extra = (...reasons: ('reprint' | 'split' | 'manual')[]) => ({
    extraPrintifyOrders: reasons.map((reason, i) => ({ printifyOrderId: `p${i}`, reason })),
  });

  it('says how many more Printify orders the receipt has, by why', () => {
    expect(extraPrintifyText(extra())).toBeNull();
    expect(extraPrintifyText(extra('reprint'))).toBe('+1 reprint');
    expect(extraPrintifyText(extra('split', 'manual', 'split'))).toBe('+2 split orders, +1 added');
    expect(extraPrintifyText(extra('manual', 'reprint', 'reprint'))).toBe('+2 reprints, +1 added');
  });
});
