import { call } from '@shared/api/call';
import { THEME_ENDPOINTS } from '@shared/contract/endpoints/theme';
import type { ThemeAsset, ThemeOverview } from '@shared/contract/theme';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** GET /admin/theme (ROLE_ADMIN): the uploaded logo and favicon. */
export const useThemeOverview = () => useSWR('admin/theme', () => call(apiClient, THEME_ENDPOINTS.overview, {}), { revalidateOnFocus: false });

/** PUT /admin/theme/{asset}: the file's bytes; the server recognises the type and checks the size. */
export const uploadThemeAsset = (asset: ThemeAsset, file: Blob): Promise<ThemeOverview> =>
  call(apiClient, THEME_ENDPOINTS.putAsset, { params: { asset } }, { rawBody: file, contentType: 'application/octet-stream' });

/** DELETE /admin/theme/{asset}: back to the product's image. */
export const removeThemeAsset = (asset: ThemeAsset): Promise<ThemeOverview> => call(apiClient, THEME_ENDPOINTS.removeAsset, { params: { asset } });

/** DELETE /admin/theme: title, colours, logo and favicon back to the defaults. */
export const resetTheme = (): Promise<ThemeOverview> => call(apiClient, THEME_ENDPOINTS.reset, {});
