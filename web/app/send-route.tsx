import { SendPage } from '@web/features/secumails/send/send-page';
import { UnlockSecuPassDialog } from '@web/features/secupass';

/** /secumails/send: the send page with the SecuPass unlock dialog for levels 3/4 (features do not import each other). */
export function SendRoute() {
  return <SendPage renderUnlock={(props) => <UnlockSecuPassDialog {...props} />} />;
}
