import type { UnlockedKeys } from '@shared/crypto/service';
import type { ChangedContactKey, E2eOptions } from '@shared/transfer/e2e';
import { cryptoApi } from '@web/lib/crypto';

// The question a room page asks when a member's key differs from the pin, for the pin checks of
// ./e2e-room-client.ts (split from it to keep that file within the size rule).

export type ConfirmChangedKey = (change: ChangedContactKey) => Promise<boolean>;
let changedKeyQuestion: ConfirmChangedKey | null = null;
let questions: Promise<unknown> = Promise.resolve();
const answers = new Map<string, Promise<boolean>>();
/** The questions still open: answered Cancel when their page goes (a check must not wait for an unmounted dialog). */
const openQuestions = new Set<(ok: boolean) => void>();

/**
 * The open room page's changed-key dialog (web/components/changed-key-dialog.tsx, as deliveries
 * ask; README section 7 "A member's key changed"): a granter's, file signer's or grantee's key
 * that differs from the pin is used only when the user confirms. Without a page to ask (search
 * across rooms) it is refused as before. Returns the unregister function.
 */
export function setChangedKeyQuestion(ask: ConfirmChangedKey, onNewPage: () => void): () => void {
  changedKeyQuestion = ask;
  answers.clear();
  onNewPage();
  return () => {
    if (changedKeyQuestion !== ask) return;
    changedKeyQuestion = null;
    for (const cancel of [...openQuestions]) cancel(false);
  };
}

/**
 * Asked once per contact and key while the page is open (the background loader verifies a folder's
 * files page by page: one question, not one per file); a Cancel stays the answer until the page is
 * opened again. One dialog at a time (a second change waits for the first answer).
 */
function askOnce(change: ChangedContactKey): Promise<boolean> {
  const key = `${change.userUuid}:${change.usage}:${change.presentedFingerprint}`;
  let answer = answers.get(key);
  if (!answer) {
    answer = askNow(change);
    answers.set(key, answer);
  }
  return answer;
}

function askNow(change: ChangedContactKey): Promise<boolean> {
  const ask = changedKeyQuestion;
  if (!ask) return Promise.resolve(false);
  const answer = questions.then(() => {
    if (changedKeyQuestion !== ask) return false;
    return new Promise<boolean>((resolve) => {
      const settle = (ok: boolean) => {
        openQuestions.delete(settle);
        resolve(ok);
      };
      openQuestions.add(settle);
      ask(change).then(settle, () => settle(false));
    });
  });
  questions = answer;
  return answer;
}

/**
 * shared/transfer's `e2e` option for this room's pin checks: the Worker, the caller's keys and the
 * page's question — `once` for reading (many files), `each` for a grant the user started (asked
 * again after a Cancel), `never` where nobody waits for an answer (refused, as before).
 */
export function e2eOf(keys: UnlockedKeys, ask: 'once' | 'each' | 'never' = 'once'): E2eOptions {
  return { crypto: cryptoApi, keys, ...(ask === 'never' ? {} : { confirmChangedKey: ask === 'once' ? askOnce : askNow }) };
}
