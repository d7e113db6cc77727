import { parseEtsyDelivery, parsePrintifyDelivery } from './payloads';

const json = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('Printify envelope (b.5)', () => {
  it('reads the documented envelope', () => {
    const delivery = parsePrintifyDelivery(
      json({
        id: '653b6be8-2ff7-4ab5-a7a6-6889a8b3bbf5',
        type: 'order:updated',
        created_at: '2026-11-24 10:00:00+00:00',
        resource: { id: '5a96f649b2439217d070f507', type: 'order', data: { shop_id: 815256, status: 'fulfilled' } },
      }),
    );
    expect(delivery).toEqual({
      id: '653b6be8-2ff7-4ab5-a7a6-6889a8b3bbf5',
      type: 'order:updated',
      createdAt: new Date('2026-11-24T10:00:00Z'),
      resource: { id: '5a96f649b2439217d070f507', type: 'order', shopId: '815256', status: 'fulfilled' },
    });
  });

  it('takes data as optional and a shop resource id as a number', () => {
    expect(
      parsePrintifyDelivery(
        json({ id: 'e1', type: 'order:created', created_at: 'yesterday', resource: { id: 'abc', type: 'order' } }),
      ),
    ).toMatchObject({ createdAt: null, resource: { shopId: null, status: null } });
    expect(
      parsePrintifyDelivery(json({ id: 'e2', type: 'shop:disconnected', resource: { id: 815256, type: 'shop' } })),
    ).toMatchObject({ resource: { id: '815256', type: 'shop' } });
  });

  it.each([
    ['', 'The delivery has no body.'],
    ['{"id":', 'The delivery body is not valid JSON.'],
    ['[1,2]', 'The delivery body is not a JSON object.'],
    [`${'['.repeat(40)}${']'.repeat(40)}`, 'The delivery body is nested too deeply or has too many fields.'],
    [{ type: 'order:updated', resource: { id: 'a', type: 'order' } }, 'The delivery has no event id.'],
    [{ id: 'bad id', type: 'order:updated', resource: { id: 'a', type: 'order' } }, 'The delivery has no event id.'],
    [{ id: 'e', resource: { id: 'a', type: 'order' } }, 'The delivery has no type.'],
    [{ id: 'e', type: 'order:updated', resource: [] }, 'The delivery has no resource.'],
    [{ id: 'e', type: 'order:updated', resource: { type: 'order' } }, 'The delivery resource has no id or type.'],
  ])('refuses %j', (body, problem) => {
    expect(parsePrintifyDelivery(json(body))).toBe(problem);
  });
});

describe('Etsy flat body (a.12)', () => {
  const url = 'https://openapi.etsy.com/v3/application/shops/12345678/receipts/3456789012';

  it('reads the documented body and the receipt id from resource_url', () => {
    expect(parseEtsyDelivery(json({ event_type: 'order.paid', resource_url: url, shop_id: 12345678 }))).toEqual({
      eventType: 'order.paid',
      shopId: '12345678',
      receiptId: '3456789012',
    });
    expect(
      parseEtsyDelivery(json({ event_type: 'order.shipped', resource_url: `${url}/`, shop_id: '12345678' })),
    ).toMatchObject({ receiptId: '3456789012' });
  });

  it.each([
    [{ resource_url: url, shop_id: 12345678 }, 'The delivery has no event_type.'],
    [{ event_type: 'order.paid', resource_url: url }, 'The delivery has no shop_id.'],
    [{ event_type: 'order.paid', resource_url: url, shop_id: -1 }, 'The delivery has no shop_id.'],
    [{ event_type: 'order.paid', shop_id: 12345678 }, 'The delivery has no resource_url.'],
    [
      {
        event_type: 'order.paid',
        resource_url: 'https://openapi.etsy.com/v3/application/shops/12345678',
        shop_id: 12345678,
      },
      'The resource_url names no receipt.',
    ],
    [{ event_type: 'order.paid', resource_url: url, shop_id: 999 }, 'The resource_url names another shop.'],
    [{ event_type: 'order.paid', data: { shop_id: 1 } }, 'The delivery has no shop_id.'],
  ])('refuses %j', (body, problem) => {
    expect(parseEtsyDelivery(json(body))).toBe(problem);
  });
});
