import { Injectable } from '@nestjs/common';
import type { Provider } from '@pod/contracts';

export type ConnectedListener = (userId: string, trigger: 'connect' | 'demo', provider?: Provider) => Promise<void>;
export type DisconnectingListener = (userId: string, provider: Provider) => Promise<void>;

/**
 * "A provider was just connected" and "a provider is about to be disconnected", for modules
 * that react (the first sync starts once both are connected; webhook subscriptions are made and
 * removed). A listener's failure never fails the connect or the disconnect: it is logged by the
 * listener. `disconnecting` runs while the connection (and its token) still exists.
 */
@Injectable()
export class ConnectionEvents {
  private readonly listeners: ConnectedListener[] = [];
  private readonly disconnectingListeners: DisconnectingListener[] = [];

  onConnected(listener: ConnectedListener): void {
    this.listeners.push(listener);
  }

  onDisconnecting(listener: DisconnectingListener): void {
    this.disconnectingListeners.push(listener);
  }

  async connected(userId: string, trigger: 'connect' | 'demo' = 'connect', provider?: Provider): Promise<void> {
    for (const listener of this.listeners) await listener(userId, trigger, provider).catch(() => undefined);
  }

  async disconnecting(userId: string, provider: Provider): Promise<void> {
    for (const listener of this.disconnectingListeners) await listener(userId, provider).catch(() => undefined);
  }
}
