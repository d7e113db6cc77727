import { HttpStatus, type PipeTransform } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { isProvider, PROVIDER_MESSAGES, type Provider } from '@pod/contracts';
import { UnsafeTextMessage } from '../../http/validation-pipe';
import { ApiException } from '../../http/api-exception';

const {
  emptyPrintifyToken: EMPTY_PRINTIFY_TOKEN,
  invalidPrintifyToken: INVALID_PRINTIFY_TOKEN,
  selectPrintifyShop: SELECT_A_SHOP,
} = PROVIDER_MESSAGES;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Shop ids arrive as numbers (Printify's) or digit strings; both become a string, anything else stays invalid. */
const shopIdToString = ({ value }: { value: unknown }) => {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return typeof value === 'string' ? value.trim() : value;
};
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : trim({ value });

// Decorators run bottom-up and the pipe stops at a property's first failure: type, presence, then format.

/**
 * A token travels in an Authorization header, which carries visible ASCII only: a token with
 * a line break, a space, a NUL or "€" cannot be one, and sending it would fail in our HTTP
 * client, not at Printify.
 */
const HEADER_SAFE_TOKEN = /^[\x21-\x7E]+$/;

export class PrintifyTokenDto {
  @UnsafeTextMessage(INVALID_PRINTIFY_TOKEN)
  @Transform(trim)
  @Matches(HEADER_SAFE_TOKEN, { message: INVALID_PRINTIFY_TOKEN })
  @MaxLength(4096, { message: 'The Printify API token is too long' })
  @IsNotEmpty({ message: EMPTY_PRINTIFY_TOKEN })
  @IsString({ message: EMPTY_PRINTIFY_TOKEN })
  token: string;
}

export class ConnectPrintifyDto extends PrintifyTokenDto {
  @Transform(shopIdToString)
  @Matches(/^[0-9]{1,20}$/, { message: SELECT_A_SHOP })
  @IsNotEmpty({ message: SELECT_A_SHOP })
  @IsString({ message: SELECT_A_SHOP })
  shopId: string;

  /** YYYY-MM-DD; empty or absent means "sync all orders". The service checks it is a real, past date. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'Please enter the sync start date as YYYY-MM-DD' })
  @IsString({ message: 'Please enter the sync start date as YYYY-MM-DD' })
  syncFromDate?: string;
}

export type DisconnectableService = Provider;

/** `:service` of DELETE /api/connections/:service: etsy or printify, anything else is 404. */
export class DisconnectableServicePipe implements PipeTransform<string, DisconnectableService> {
  transform(value: string): DisconnectableService {
    if (isProvider(value)) return value;
    throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Not Found');
  }
}
