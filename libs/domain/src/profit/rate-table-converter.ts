import type { CurrencyCode } from '../currency';
import { convertMoney } from '../exchange/convert';
import type { RateTable } from '../exchange/rate-table';
import type { Money } from '../money';
import type { ProfitConverter, ProfitConverterAnswer } from './converter';

/** The profit engine's converter over a preloaded ECB rate table: the exchange library's answer, in the engine's shape. */
export function rateTableConverter(table: RateTable): ProfitConverter {
  return (amount: Money, to: CurrencyCode, onDate: string): ProfitConverterAnswer => {
    const answer = convertMoney(table, amount, to, onDate);
    if (answer.unavailable) return { unavailable: true, reason: answer.message };
    return { amount: answer.amount, rate: answer.rate, rateDate: answer.rateDate };
  };
}
