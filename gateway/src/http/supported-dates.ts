import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isSupportedIsoDate, isSupportedMonth } from '@pod/domain';

/** A YYYY-MM month within the product's supported years (libs/domain supported-dates). */
export function IsSupportedMonth(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isSupportedMonth', validator: { validate: (value: unknown) => isSupportedMonth(value) } }, options);
}

/** A YYYY-MM-DD calendar date within the product's supported years (libs/domain supported-dates). */
export function IsSupportedDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isSupportedDate', validator: { validate: (value: unknown) => isSupportedIsoDate(value) } }, options);
}
