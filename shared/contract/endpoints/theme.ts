import { ThemeAssetParamsSchema, ThemeOverviewSchema } from '../theme';
import { defineEndpoint } from '../endpoint';

const ADMIN = { roles: ['ROLE_ADMIN'] } as const;

/** The installation's logo and favicon, and the reset of the whole theme (server/theme). */
export const THEME_ENDPOINTS = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/admin/theme',
    response: { 200: ThemeOverviewSchema },
    errors: [401, 403],
    access: ADMIN,
    operationId: 'getTheme',
    summary: 'The uploaded logo and favicon (null = the product default)',
    tag: 'admin',
  }),
  putAsset: defineEndpoint({
    method: 'PUT',
    path: '/admin/theme/{asset}',
    params: ThemeAssetParamsSchema,
    response: { 200: ThemeOverviewSchema },
    errors: [400, 401, 403, 413, 415],
    access: ADMIN,
    consumes: 'application/octet-stream',
    operationId: 'uploadThemeAsset',
    summary: 'Uploads the logo or favicon (raw image bytes; type recognised from the content, size limited)',
    tag: 'admin',
  }),
  removeAsset: defineEndpoint({
    method: 'DELETE',
    path: '/admin/theme/{asset}',
    params: ThemeAssetParamsSchema,
    response: { 200: ThemeOverviewSchema },
    errors: [400, 401, 403],
    access: ADMIN,
    operationId: 'removeThemeAsset',
    summary: 'Goes back to the product logo or favicon',
    tag: 'admin',
  }),
  reset: defineEndpoint({
    method: 'DELETE',
    path: '/admin/theme',
    response: { 200: ThemeOverviewSchema },
    errors: [401, 403],
    access: ADMIN,
    operationId: 'resetTheme',
    summary: 'Resets title, colours, logo and favicon to the defaults',
    tag: 'admin',
  }),
};
