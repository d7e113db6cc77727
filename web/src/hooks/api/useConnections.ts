import useSWR, { mutate } from 'swr';
import type { ConnectionsStatus, PrintifyTokenShops } from '@pod/contracts';
import { apiRequest } from './client';
import { API } from './keys';
import type { ConnectableService, ConnectPrintifyInput } from './types';

/** GET /api/connections/status: both connections as the server stores them. */
export function useConnectionsStatus() {
  const { data, error, isLoading, mutate: reload } = useSWR<ConnectionsStatus>(API.connectionsStatus);
  return { status: data, error: error as Error | undefined, isLoading, reload };
}

/** A connection change can start syncs (both connected) or end them: both answers are asked again. */
const refreshStatus = () => Promise.all([mutate(API.connectionsStatus), mutate(API.syncStatus)]);

/** Starts Etsy's OAuth flow; the caller sends the browser to `authUrl`. */
export function startEtsyConnection() {
  return apiRequest<{ authUrl: string }>('POST', API.etsyOAuth);
}

/** Checks a Printify personal access token; answers the shops it can see. */
export function validatePrintifyToken(token: string) {
  return apiRequest<PrintifyTokenShops>('POST', API.printifyValidate, { token });
}

export async function connectPrintify(input: ConnectPrintifyInput) {
  const result = await apiRequest<{ ok: true }>('POST', API.printifyConnect, input);
  await refreshStatus();
  return result;
}

export async function disconnectService(service: ConnectableService) {
  await apiRequest('DELETE', API.disconnect(service));
  await refreshStatus();
}
