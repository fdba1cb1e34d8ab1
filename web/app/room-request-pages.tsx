import { DarSignupPage } from '@web/features/secumails/dar-signup-page';
import { DeliverySignupPage } from '@web/features/secumails/external-pages';
import { DarSendPage } from '@web/features/secumails/send/dar-send-page';
import { SendPage } from '@web/features/secumails/send/send-page';
import { fragmentValue } from '@shared/contract/link-token';
import { useLocation } from 'react-router';

/**
 * Data-room requests (SPEC §2 "dar") share two routes with deliveries: `/secumails/send#dar=<token>`
 * is the send page's dar variant, `/auth/delivery-signup-dar#token=<token>` the request's signup
 * (without `token` that path stays the SMS signup of a delivery's external recipient). The token
 * is in the fragment (issue 28); links mailed before had it in the query, which still counts.
 */
const hasToken = (location: { search: string; hash: string }, name: string) =>
  Boolean(fragmentValue(location.hash, name) || new URLSearchParams(location.search).get(name));

export function SendRoutePage() {
  return hasToken(useLocation(), 'dar') ? <DarSendPage /> : <SendPage />;
}

export function DeliverySignupDarRoutePage() {
  return hasToken(useLocation(), 'token') ? <DarSignupPage /> : <DeliverySignupPage />;
}
