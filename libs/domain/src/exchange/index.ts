export { DecimalError, divideHalfEven, parsePositiveDecimal, ratioToDecimal, type Ratio } from './decimal';
export { isTargetDay, latestTargetDayOnOrBefore, nextTargetDay } from './target-calendar';
export * from './rate-table';
export * from './convert';
