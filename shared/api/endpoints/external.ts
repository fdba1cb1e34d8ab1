import { EXTERNAL_ENDPOINTS as E } from '@shared/contract/endpoints/external';
import {
  type EmailCheckBody,
  type EmailCheckResponse,
  type LinkCheckBody,
  type LinkCheckResponse,
  type PhoneNumbersBody,
  type PhoneNumbersResponse,
  type SignupBody,
  type SignupResponse,
  type SmsCodeBody,
  type SmsCodeResponse,
} from '@shared/contract/external';
import { call } from '../call';
import type { ApiClient } from '../client';

/** The external recipient's calls (contract `shared/contract/external.ts`). */

/** POST /shares/{shareUuid}/link-check: does the mailed link still open a delivery (before the prompt asks)? */
export function checkShareLink(client: ApiClient, shareUuid: string, body: LinkCheckBody): Promise<LinkCheckResponse> {
  return call(client, E.linkCheck, { params: { shareUuid }, body });
}

/** POST /shares/{shareUuid}/email-check: the email prompt. */
export function checkShareEmail(client: ApiClient, shareUuid: string, body: EmailCheckBody): Promise<EmailCheckResponse> {
  return call(client, E.emailCheck, { params: { shareUuid }, body });
}

/** POST /shares/{shareUuid}/sms-code: sends (or re-sends after the cool-down) the signup SMS code. */
export function requestSignupSmsCode(client: ApiClient, shareUuid: string, body: SmsCodeBody): Promise<SmsCodeResponse> {
  return call(client, E.smsCode, { params: { shareUuid }, body });
}

/** POST /shares/{shareUuid}/signup: creates the recipient's account; sign in afterwards. */
export function signUpForDelivery(client: ApiClient, shareUuid: string, body: SignupBody): Promise<SignupResponse> {
  return call(client, E.signup, { params: { shareUuid }, body });
}

/** PUT /deliveries/{deliveryUuid}/phone-numbers (the sender): recipients' numbers for the SMS second factor. */
export async function setDeliveryPhoneNumbers(client: ApiClient, deliveryUuid: string, body: PhoneNumbersBody): Promise<PhoneNumbersResponse> {
  return call(client, E.phoneNumbers, { params: { deliveryUuid }, body });
}
