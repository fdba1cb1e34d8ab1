import { ThemeAssetParamsSchema, ThemeOverviewSchema } from '../theme';
import { endpointArea } from '../endpoint';

const ADMIN = { roles: ['ROLE_ADMIN'] } as const;

const area = endpointArea({ tag: 'admin', access: ADMIN });

/** The installation's logo and favicon, and the reset of the whole theme (server/theme). */
export const THEME_ENDPOINTS = {
  overview: area.get('/admin/theme', 'getTheme', 'The uploaded logo and favicon (null = the product default)', {
    response: { 200: ThemeOverviewSchema }, errors: [401, 403],
  }),
  putAsset: area.put('/admin/theme/{asset}', 'uploadThemeAsset', 'Uploads the logo or favicon (raw image bytes; type recognised from the content, size limited)', {
    params: ThemeAssetParamsSchema, response: { 200: ThemeOverviewSchema }, errors: [400, 401, 403, 413, 415], consumes: 'application/octet-stream',
  }),
  removeAsset: area.delete('/admin/theme/{asset}', 'removeThemeAsset', 'Goes back to the product logo or favicon', {
    params: ThemeAssetParamsSchema, response: { 200: ThemeOverviewSchema }, errors: [400, 401, 403],
  }),
  reset: area.delete('/admin/theme', 'resetTheme', 'Resets title, colours, logo and favicon to the defaults', {
    response: { 200: ThemeOverviewSchema }, errors: [401, 403],
  }),
};
