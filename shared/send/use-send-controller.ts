import { useState, useSyncExternalStore } from 'react';
import { createSendController, type SendController, type SendControllerFile, type SendControllerOptions, type SendControllerState } from './send-controller';

/**
 * The thin React view of a send controller (send-controller.ts), for the web send page and the
 * add-in send screen: made once per mounted form from the first render's options, re-rendering on
 * every state change. The only React in shared/ (eslint.config.mjs allows `react` in
 * `shared/**\/use-*.ts`, nothing else: no UI, no Fluent).
 */
export function useSendController<F extends SendControllerFile>(options: SendControllerOptions<F>): [SendControllerState<F>, SendController<F>] {
  const [controller] = useState(() => createSendController<F>(options));
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  return [state, controller];
}
