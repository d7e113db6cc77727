import { ProviderConnectionEntity } from '../entities/provider-connection.entity';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';

export interface StoredProfitSettings {
  vatRegistered: boolean;
  printifyCostReading: 'per_unit' | 'per_line';
  etsyConnected: boolean;
  printifyConnected: boolean;
}

export type ProfitSettingsChange = Partial<Pick<StoredProfitSettings, 'vatRegistered' | 'printifyCostReading'>>;

/**
 * The seller's profit settings (ADR 0026), kept on their connections: the VAT registration on
 * the Etsy shop's, the Printify cost reading on the Printify account's. Scoped by the owner.
 */
export class ProfitSettingsRepository {
  constructor(private readonly db: Db) {}

  read(userId: string): Promise<StoredProfitSettings> {
    return inTenantScope(this.db, userId, async (db) => {
      const rows = await db.getRepository(ProviderConnectionEntity).find({
        where: { userId },
        select: { provider: true, vatRegistered: true, printifyCostReading: true },
      });
      const etsy = rows.find((row) => row.provider === 'etsy');
      const printify = rows.find((row) => row.provider === 'printify');
      return {
        vatRegistered: etsy?.vatRegistered ?? false,
        printifyCostReading: printify?.printifyCostReading ?? 'per_unit',
        etsyConnected: etsy !== undefined,
        printifyConnected: printify !== undefined,
      };
    });
  }

  /**
   * Applies the change in one transaction; `not_connected` names the provider a setting needs
   * but the user has not connected (then nothing is written). `changed` says whether any stored
   * value differs from before.
   */
  update(
    userId: string,
    change: ProfitSettingsChange,
  ): Promise<{ outcome: 'not_connected'; provider: 'etsy' | 'printify' } | { outcome: 'updated'; changed: boolean }> {
    return inTenantScope(this.db, userId, async (db) => {
      const connections = db.getRepository(ProviderConnectionEntity);
      const rows = await connections.find({
        where: { userId },
        select: { provider: true, vatRegistered: true, printifyCostReading: true },
      });
      const etsy = rows.find((row) => row.provider === 'etsy');
      const printify = rows.find((row) => row.provider === 'printify');
      if (change.vatRegistered !== undefined && !etsy) return { outcome: 'not_connected', provider: 'etsy' };
      if (change.printifyCostReading !== undefined && !printify)
        return { outcome: 'not_connected', provider: 'printify' };
      let changed = false;
      if (etsy && change.vatRegistered !== undefined && change.vatRegistered !== etsy.vatRegistered) {
        await connections.update({ userId, provider: 'etsy' }, { vatRegistered: change.vatRegistered });
        changed = true;
      }
      if (
        printify &&
        change.printifyCostReading !== undefined &&
        change.printifyCostReading !== printify.printifyCostReading
      ) {
        await connections.update({ userId, provider: 'printify' }, { printifyCostReading: change.printifyCostReading });
        changed = true;
      }
      return { outcome: 'updated', changed };
    });
  }
}
