import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isSupportedMonth } from '@pod/domain';

/** A YYYY-MM month within the product's supported years (libs/domain supported-dates). */
export function IsSupportedMonth(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isSupportedMonth', validator: { validate: (value: unknown) => isSupportedMonth(value) } },
    options,
  );
}
