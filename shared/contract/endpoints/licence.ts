import { LicenceOverviewSchema } from '../licence';
import { endpointArea } from '../endpoint';

const area = endpointArea({ tag: 'admin', access: { roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] } });

/** Licence counts against the operator's caps (server/licence). */
export const LICENCE_ENDPOINTS = {
  overview: area.get('/admin/licence', 'getLicenceOverview', 'Licensed senders, data-room creators and active forms: count, cap and holders', {
    response: { 200: LicenceOverviewSchema }, errors: [401, 403],
  }),
};
