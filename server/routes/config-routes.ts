import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { senderSendConfig } from '../deliveries/senders';
import { themeAssetUrl, themeOverview } from '../theme/theme-assets';
import { THEME_PROFILE_KEYS } from '@shared/contract/theme';
import { operatorProfile } from '../settings/operator-profile';

/** GET /config/profile (public) and GET /delivery/send/config (signed in), SPEC §7. */
export const configRoutes = routePlugin('kuvert-config-routes', async (app) => {
  registerEndpoint(app, ACCOUNT_ENDPOINTS.configProfile, async (_request, reply) => {
    void reply.header('cache-control', 'no-cache');
    // Besides SPEC §3's keys: the current logo and favicon URLs, versioned by content (server/theme).
    const assets = await themeOverview(app.db);
    return {
      config: {
        ...(await app.settings.profile()),
        // The operator's keys (environment) override whatever the settings table holds.
        ...operatorProfile(app.config),
        [THEME_PROFILE_KEYS.logoUrl]: themeAssetUrl('logo', assets.logo),
        [THEME_PROFILE_KEYS.faviconUrl]: themeAssetUrl('favicon', assets.favicon),
      },
    };
  });

  // The caller's own: levels limited by their sender group, and what they may send (senders.ts).
  registerEndpoint(app, ACCOUNT_ENDPOINTS.sendConfig, async (request) => senderSendConfig(app, request.user!));
});
