import { ConfigProfileResponseSchema, DeliverySendConfigSchema } from '@shared/contract/config';
import { API_BASE } from '@shared/contract/constants';
import { BackendErrorSchema } from '@shared/contract/errors';
import { routePlugin } from '../core/route-plugin';
import { senderSendConfig } from '../deliveries/senders';

/** GET /config/profile (public) and GET /delivery/send/config (signed in), SPEC §7. */
export const configRoutes = routePlugin('kuvert-config-routes', async (app) => {
  app.get(
    `${API_BASE}/config/profile`,
    {
      config: { access: 'public' },
      schema: { summary: 'The public configuration profile (every ftapi.* key)', tags: ['config'], response: { 200: ConfigProfileResponseSchema } },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      return { config: await app.settings.profile() };
    },
  );

  app.get(
    `${API_BASE}/delivery/send/config`,
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Allowed security levels and delivery cleanup bounds (milliseconds)',
        tags: ['config'],
        response: { 200: DeliverySendConfigSchema, 401: BackendErrorSchema },
      },
    },
    // The caller's own: levels limited by their sender group, and what they may send (senders.ts).
    async (request) => senderSendConfig(app, request.user!),
  );
});
