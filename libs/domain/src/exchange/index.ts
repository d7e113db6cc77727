export { DecimalError, divideHalfEven, parsePositiveDecimal, ratioToDecimal, type Ratio } from './decimal';
export { isIsoDate as isIsoCalendarDate, isTargetDay, nextTargetDay } from './target-calendar';
export * from './rate-table';
export * from './convert';
