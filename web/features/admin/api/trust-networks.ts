import { call } from '@shared/api/call';
import { TRUST_NETWORK_ENDPOINTS } from '@shared/contract/endpoints/trust-networks';
import type { TrustConnection, TrustConnectionInput } from '@shared/contract/trust-networks';
import { apiClient } from '@web/lib/api-client';

/** GET /admin/trust-networks (ROLE_ADMIN). */
export const loadTrustConnections = (): Promise<TrustConnection[]> => call(apiClient, TRUST_NETWORK_ENDPOINTS.list, {}).then((list) => list.connections);

export const loadTrustConnection = (connectionId: string): Promise<TrustConnection> => call(apiClient, TRUST_NETWORK_ENDPOINTS.get, { params: { connectionId } });

export const createTrustConnection = (body: TrustConnectionInput): Promise<TrustConnection> => call(apiClient, TRUST_NETWORK_ENDPOINTS.create, { body });

export const updateTrustConnection = (connectionId: string, body: TrustConnectionInput): Promise<TrustConnection> =>
  call(apiClient, TRUST_NETWORK_ENDPOINTS.update, { params: { connectionId }, body });

export const deleteTrustConnection = (connectionId: string): Promise<void> => call(apiClient, TRUST_NETWORK_ENDPOINTS.remove, { params: { connectionId } }).then(() => undefined);

/** The signed round trip; the answer carries the result (status and last test). */
export const testTrustConnection = (connectionId: string): Promise<TrustConnection> => call(apiClient, TRUST_NETWORK_ENDPOINTS.test, { params: { connectionId } });
