import { DarSignupPage } from '@web/features/secumails/dar-signup-page';
import { DeliverySignupPage } from '@web/features/secumails/external-pages';
import { DarSendPage } from '@web/features/secumails/send/dar-send-page';
import { SendPage } from '@web/features/secumails/send/send-page';
import { useSearchParams } from 'react-router';

/**
 * Data-room requests (SPEC §2 "dar") share two routes with deliveries: `/secumails/send?dar=<token>`
 * is the send page's dar variant, `/auth/delivery-signup-dar?token=<token>` the request's signup
 * (without `token` that path stays the SMS signup of a delivery's external recipient).
 */
export function SendRoutePage() {
  const [params] = useSearchParams();
  return params.get('dar') ? <DarSendPage /> : <SendPage />;
}

export function DeliverySignupDarRoutePage() {
  const [params] = useSearchParams();
  return params.get('token') ? <DarSignupPage /> : <DeliverySignupPage />;
}
