import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import type { TermsConsent } from '@shared/contract/terms';
import { call } from '../call';
import type { ApiClient } from '../client';

/** GET /user/terms: the terms in force and the signed-in user's agreement (shared/contract/terms.ts). */
export const getTermsConsent = (client: ApiClient): Promise<TermsConsent> => call(client, ACCOUNT_ENDPOINTS.termsConsent, {});

/** POST /user/terms: agrees to `version` (409 when another version is in force by now). */
export const postAcceptTerms = (client: ApiClient, version: number): Promise<TermsConsent> => call(client, ACCOUNT_ENDPOINTS.acceptTerms, { body: { version } });
