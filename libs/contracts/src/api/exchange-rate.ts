/**
 * `GET /api/exchange-rate/:date/:from/:to`: units of `to` for one unit of `from` at the ECB
 * rates of `date` (the latest ECB day on or before it). `rate` is a decimal string, exact when
 * it has at most 10 significant digits, else rounded half to even to 10 (multiply an amount by
 * `Number(rate)` for display); `date` is the ECB day whose rates were used.
 */
export interface ExchangeRateResponse {
  rate: string;
  date: string;
}
