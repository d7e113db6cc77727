export { DecimalError, divideHalfEven, parsePositiveDecimal, ratioToDecimal, type Ratio } from './decimal';
export {
  isIsoDate as isIsoCalendarDate,
  isTargetDay,
  latestTargetDayOnOrBefore,
  nextTargetDay,
} from './target-calendar';
export * from './rate-table';
export * from './convert';
