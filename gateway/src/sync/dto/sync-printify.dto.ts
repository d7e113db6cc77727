import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';

/** POST /api/sync/printify: `{shopId}` (a shop of the connected account) or `{}` (the connected shop). */
export class SyncPrintifyDto {
  // The web app gets shop ids as numbers from Printify's shop list; both forms mean the same id.
  @IsOptional()
  @Transform(({ value }) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value,
  )
  @Matches(/^\d{1,19}$/, { message: 'shopId must be a Printify shop id' })
  shopId?: string;
}
