import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CURRENCY_EXPONENTS } from '@pod/domain';

/**
 * Payments stored in the buyer's currency whose values are the shop's (integrations.md §a.6,
 * etsy/open-api issue #564; docs/adr/0034-real-payloads.md): the mapper now reads such amounts
 * in the shop currency. Rows stored before are relabelled where the two currencies have the same
 * minor unit (the stored numbers are then already right); the others have their payload hash
 * cleared, so the next fetch of the payment writes it again through the mapper. Under FORCE
 * row-level security the updates run per user.
 */
export class PaymentsInShopCurrency1765700600000 implements MigrationInterface {
  name = 'PaymentsInShopCurrency1765700600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Codes and exponents from the domain's own ISO table (three capital letters, digits).
    const exponents = Object.entries(CURRENCY_EXPONENTS)
      .filter(([code, exponent]) => /^[A-Z]{3}$/.test(code) && Number.isInteger(exponent))
      .map(([code, exponent]) => `('${code}', ${exponent})`)
      .join(', ');
    const signature = `upper(p.payload -> 'amount_gross' ->> 'currency_code') = upper(p.payload ->> 'buyer_currency')
      AND upper(p.payload ->> 'buyer_currency') <> upper(p.payload ->> 'shop_currency')
      AND p.currency = upper(p.payload ->> 'buyer_currency') AND p.user_id = uid`;
    const sameMinorUnit = `(SELECT count(DISTINCT e) FROM (VALUES ${exponents}) ex(code, e)
      WHERE ex.code IN (p.currency, upper(p.payload ->> 'shop_currency'))
      HAVING count(*) = 2) = 1`;
    await queryRunner.query(`
      DO $relabel$
      DECLARE uid uuid;
      BEGIN
        FOR uid IN SELECT id FROM app_user LOOP
          PERFORM set_config('app.user_id', uid::text, true);
          UPDATE etsy_payment p SET currency = upper(p.payload ->> 'shop_currency') WHERE ${signature} AND ${sameMinorUnit};
          UPDATE etsy_payment p SET payload_hash = '' WHERE ${signature} AND NOT coalesce(${sameMinorUnit}, false);
        END LOOP;
        PERFORM set_config('app.user_id', '', true);
      END
      $relabel$`);
  }

  async down(): Promise<void> {
    // The relabelled rows were wrong before; there is nothing to restore.
  }
}
