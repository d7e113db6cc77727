import { Injectable } from '@nestjs/common';

export type ConnectedListener = (userId: string, trigger: 'connect' | 'demo') => Promise<void>;

/**
 * "A provider was just connected", for modules that react (the first sync starts once both
 * are connected). A listener's failure never fails the connect: it is logged by the listener.
 */
@Injectable()
export class ConnectionEvents {
  private readonly listeners: ConnectedListener[] = [];

  onConnected(listener: ConnectedListener): void {
    this.listeners.push(listener);
  }

  async connected(userId: string, trigger: 'connect' | 'demo' = 'connect'): Promise<void> {
    for (const listener of this.listeners) await listener(userId, trigger).catch(() => undefined);
  }
}
