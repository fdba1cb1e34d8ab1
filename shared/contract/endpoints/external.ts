import { DeliveryParamsSchema } from '../deliveries';
import {
  EmailCheckBodySchema,
  EmailCheckResponseSchema,
  LinkCheckBodySchema,
  LinkCheckResponseSchema,
  PhoneNumbersBodySchema,
  PhoneNumbersResponseSchema,
  ShareParamsSchema,
  SignupBodySchema,
  SignupResponseSchema,
  SmsCodeBodySchema,
  SmsCodeResponseSchema,
} from '../external';
import { endpointArea } from '../endpoint';

const external = endpointArea({ tag: 'external', access: 'public' });

/** External recipients: link and e-mail checks, SMS codes, sign-up from a share, phone numbers of a delivery. */
export const EXTERNAL_ENDPOINTS = {
  linkCheck: external.post('/shares/{shareUuid}/link-check', 'checkShareLink', "Link check: before the email prompt asks anything, whether the mailed link still opens a delivery", {
    params: ShareParamsSchema, body: LinkCheckBodySchema, response: { 200: LinkCheckResponseSchema }, errors: [400, 404, 429],
  }),
  emailCheck: external.post('/shares/{shareUuid}/email-check', 'checkShareEmail', 'Email prompt: the link holder confirms the address the delivery was sent to', {
    params: ShareParamsSchema, body: EmailCheckBodySchema, response: { 200: EmailCheckResponseSchema }, errors: [400, 404, 429],
  }),
  smsCode: external.post('/shares/{shareUuid}/sms-code', 'requestShareSmsCode', 'Sends the SMS code of a double-authenticated delivery signup (cool-down between sends)', {
    params: ShareParamsSchema, body: SmsCodeBodySchema, response: { 200: SmsCodeResponseSchema }, errors: [400, 404, 409, 429, 503],
  }),
  signup: external.post('/shares/{shareUuid}/signup', 'signUpFromShare', "Delivery signup: creates the recipient's account (address verified by the link)", {
    params: ShareParamsSchema, body: SignupBodySchema, response: { 201: SignupResponseSchema }, errors: [400, 404, 409, 429],
  }),
  phoneNumbers: external.put('/deliveries/{deliveryUuid}/phone-numbers', 'setPhoneNumbers', "Recipients' phone numbers for the SMS second factor (the delivery's sender)", {
    params: DeliveryParamsSchema, body: PhoneNumbersBodySchema, response: { 200: PhoneNumbersResponseSchema },
    errors: [400, 401, 403, 404], access: { roles: ['ROLE_SENDER'] },
  }),
};
