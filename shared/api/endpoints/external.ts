import {
  EXTERNAL_PATHS,
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
import type { ApiClient } from '../client';

/** The external recipient's calls (contract `shared/contract/external.ts`). */

/** POST /shares/{shareUuid}/link-check: does the mailed link still open a delivery (before the prompt asks)? */
export function checkShareLink(client: ApiClient, shareUuid: string, body: LinkCheckBody): Promise<LinkCheckResponse> {
  return client.post<LinkCheckResponse>(EXTERNAL_PATHS.linkCheck(shareUuid), body);
}

/** POST /shares/{shareUuid}/email-check: the email prompt. */
export function checkShareEmail(client: ApiClient, shareUuid: string, body: EmailCheckBody): Promise<EmailCheckResponse> {
  return client.post<EmailCheckResponse>(EXTERNAL_PATHS.emailCheck(shareUuid), body);
}

/** POST /shares/{shareUuid}/sms-code: sends (or re-sends after the cool-down) the signup SMS code. */
export function requestSignupSmsCode(client: ApiClient, shareUuid: string, body: SmsCodeBody): Promise<SmsCodeResponse> {
  return client.post<SmsCodeResponse>(EXTERNAL_PATHS.smsCode(shareUuid), body);
}

/** POST /shares/{shareUuid}/signup: creates the recipient's account; sign in afterwards. */
export function signUpForDelivery(client: ApiClient, shareUuid: string, body: SignupBody): Promise<SignupResponse> {
  return client.post<SignupResponse>(EXTERNAL_PATHS.signup(shareUuid), body);
}

/** PUT /deliveries/{deliveryUuid}/phone-numbers (the sender): recipients' numbers for the SMS second factor. */
export async function setDeliveryPhoneNumbers(client: ApiClient, deliveryUuid: string, body: PhoneNumbersBody): Promise<PhoneNumbersResponse> {
  return (await client.request<PhoneNumbersResponse>('PUT', EXTERNAL_PATHS.phoneNumbers(deliveryUuid), { body })).data;
}
