import { FORM_LAYOUT_ENDPOINTS as E } from '@shared/contract/endpoints/form-layout';
import type { FormBackgroundInfo } from '@shared/contract/form-layout';
import { call } from '../call';
import type { ApiClient } from '../client';

/** A form's background image (contract `shared/contract/form-layout.ts`). */

export const getFormBackground = (client: ApiClient, formUuid: string): Promise<FormBackgroundInfo> => call(client, E.backgroundInfo, { params: { formUuid } });

/** Raw bytes; the server recognises the type from them. */
export const uploadFormBackground = (client: ApiClient, formUuid: string, file: Blob): Promise<FormBackgroundInfo> =>
  call(client, E.putBackground, { params: { formUuid } }, { rawBody: file, contentType: 'application/octet-stream' });

export const removeFormBackground = (client: ApiClient, formUuid: string): Promise<FormBackgroundInfo> => call(client, E.removeBackground, { params: { formUuid } });
