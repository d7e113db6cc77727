import { Injectable } from '@nestjs/common';
import type { Provider } from '@pod/contracts';

export type ConnectedListener = (userId: string, trigger: 'connect' | 'demo', provider?: Provider) => Promise<void>;
export type DisconnectingListener = (userId: string, provider: Provider) => Promise<void>;
export type ShopListener = (userId: string, provider: Provider) => Promise<void>;

/**
 * "A provider was just connected", "is about to be disconnected" or "moves to another shop", for modules
 * that react (the first sync starts once both are connected; webhook subscriptions are made and
 * removed). A listener's failure never fails the connect or the disconnect: it is logged by the
 * listener. `disconnecting` runs while the connection (and its token) still exists.
 */
@Injectable()
export class ConnectionEvents {
  private readonly listeners: ConnectedListener[] = [];
  private readonly disconnectingListeners: DisconnectingListener[] = [];
  private readonly replacingListeners: ShopListener[] = [];
  private readonly shopChangedListeners: ShopListener[] = [];

  onConnected(listener: ConnectedListener): void {
    this.listeners.push(listener);
  }

  onDisconnecting(listener: DisconnectingListener): void {
    this.disconnectingListeners.push(listener);
  }

  onReplacing(listener: ShopListener): void {
    this.replacingListeners.push(listener);
  }

  onShopChanged(listener: ShopListener): void {
    this.shopChangedListeners.push(listener);
  }

  async connected(userId: string, trigger: 'connect' | 'demo' = 'connect', provider?: Provider): Promise<void> {
    for (const listener of this.listeners) await listener(userId, trigger, provider).catch(() => undefined);
  }

  async disconnecting(userId: string, provider: Provider): Promise<void> {
    for (const listener of this.disconnectingListeners) await listener(userId, provider).catch(() => undefined);
  }

  /**
   * The connection is about to move to another shop (a connect of another account or shop, or
   * "Select Printify Shop"): runs while the old shop and token are still stored, so what was made
   * at the provider for them (webhook subscriptions) can be removed rather than orphaned.
   */
  async replacing(userId: string, provider: Provider): Promise<void> {
    for (const listener of this.replacingListeners) await listener(userId, provider).catch(() => undefined);
  }

  /** The connection's shop changed with its token kept ("Select Printify Shop"). */
  async shopChanged(userId: string, provider: Provider): Promise<void> {
    for (const listener of this.shopChangedListeners) await listener(userId, provider).catch(() => undefined);
  }
}
