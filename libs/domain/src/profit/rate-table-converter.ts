import type { CurrencyCode } from '../currency';
import { convertMoney } from '../exchange/convert';
import type { RateTable } from '../exchange/rate-table';
import type { Money } from '../money';
import type { ProfitConverter, ProfitConverterAnswer } from './converter';

/**
 * The profit engine's converter over a preloaded ECB rate table: the exchange library's answer,
 * in the engine's shape. An order whose ECB day is not loaded yet converts at the latest loaded
 * day's rates, marked provisional (ADR 0014), so today's orders count before 16:00 CET.
 */
export function rateTableConverter(table: RateTable): ProfitConverter {
  return (amount: Money, to: CurrencyCode, onDate: string): ProfitConverterAnswer => {
    const answer = convertMoney(table, amount, to, onDate, { allowProvisional: true });
    if (answer.unavailable) return { unavailable: true, reason: answer.message };
    const conversion = { amount: answer.amount, rate: answer.rate, rateDate: answer.rateDate };
    return answer.provisional ? { ...conversion, provisional: answer.provisional } : conversion;
  };
}
