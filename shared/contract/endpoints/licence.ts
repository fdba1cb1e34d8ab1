import { LicenceOverviewSchema } from '../licence';
import { defineEndpoint } from '../endpoint';

/** Licence counts against the operator's caps (server/licence). */
export const LICENCE_ENDPOINTS = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/admin/licence',
    response: { 200: LicenceOverviewSchema },
    errors: [401, 403],
    access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] },
    operationId: 'getLicenceOverview',
    summary: 'Licensed senders, data-room creators and active forms: count, cap and holders',
    tag: 'admin',
  }),
};
