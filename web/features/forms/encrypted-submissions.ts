import { ApiError } from '@shared/api/api-error';
import { deliveryContentUrl } from '@shared/api/endpoints/delivery-read';
import { getFormSubmissions } from '@shared/api/endpoints/form-admin';
import type { FormSubmission } from '@shared/contract/form-submissions';
import type { CustomField, Form } from '@shared/contract/forms';
import type { UnlockedKeys } from '@shared/crypto/service';
import { keptValuesOfDocument, type KeptValues } from '@shared/rules/form-export';
import { openE2eDelivery } from '@shared/transfer/e2e';
import { readFormValues } from '@shared/transfer/form-submit';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi, useSecuPassSession } from '@web/lib/crypto';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useCallback, useEffect, useRef, useState } from 'react';

/** The largest page the server gives: exports and the level 3/4 decryption read every submission in pages of it. */
const ALL_PAGE_SIZE = 200;

/** Every submission of a form, page after page (exports and the level 3/4 summary need them all). */
export async function allSubmissions(formUuid: string): Promise<{ columns: string[]; submissions: FormSubmission[] }> {
  const first = await getFormSubmissions(apiClient, formUuid, 1, ALL_PAGE_SIZE);
  const submissions = [...first.submissions];
  for (let page = 2; (page - 1) * ALL_PAGE_SIZE < first.total; page++) submissions.push(...(await getFormSubmissions(apiClient, formUuid, page, ALL_PAGE_SIZE)).submissions);
  return { columns: first.columns, submissions };
}

/**
 * One level 3/4 submission as this viewer reads it: `decrypted` (its values, kept as the server
 * keeps levels 1/2), `notRecipient` (the server holds no key copy for the viewer: a submitter chose
 * other recipients, or the viewer's SecuPass was reset since), `failed` (it did not decrypt or
 * verify — a changed signing key, a broken document).
 */
export type DecryptedSubmission = { state: 'decrypted'; kept: KeptValues } | { state: 'notRecipient' } | { state: 'failed' };

async function decryptSubmission(deliveryUuid: string, keys: UnlockedKeys, fields: readonly CustomField[]): Promise<DecryptedSubmission> {
  let opened;
  try {
    opened = await openE2eDelivery({ client: apiClient, deliveryUuid, e2e: { crypto: cryptoApi, keys } });
  } catch (error) {
    // GET …/e2e answers 404 (AccessDescriptorNotFoundException, or no such delivery for the caller)
    // or 403 when the caller holds no copy of the keys.
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return { state: 'notRecipient' };
    console.debug('[forms] submission not opened', error);
    return { state: 'failed' };
  }
  try {
    const document = await readFormValues({ delivery: opened, crypto: cryptoApi, url: (fileId) => deliveryContentUrl(deliveryUuid, fileId), fetch: globalThis.fetch.bind(globalThis) });
    return document ? { state: 'decrypted', kept: keptValuesOfDocument(fields, document.values) } : { state: 'failed' };
  } catch (error) {
    console.debug('[forms] submission values not decrypted', error);
    return { state: 'failed' };
  } finally {
    await opened.close();
  }
}

export interface EncryptedSubmissions {
  /** `locked`: the keys are locked and nothing was asked yet; `done` also after some rows failed. */
  phase: 'locked' | 'decrypting' | 'done' | 'error';
  /** Every submission (all pages), once read. */
  all: { columns: string[]; submissions: FormSubmission[] } | null;
  /** deliveryUuid → what this viewer read of it. */
  results: ReadonlyMap<string, DecryptedSubmission>;
  /** Unlocks (the product's SecuPass dialog) when needed, then decrypts every sent submission. */
  decrypt: () => Promise<void>;
}

/**
 * The level 3/4 Submissions tab's data (issue 33 §1): each sent submission's `form-values.json`
 * decrypted in the browser through the crypto Worker with the viewer's unlocked keys, one after
 * the other. It starts by itself when the keys are already unlocked; otherwise `decrypt` asks for
 * the passphrase. Nothing decrypted leaves the page.
 */
export function useEncryptedSubmissions(form: Form, enabled: boolean): EncryptedSubmissions {
  const unlockedKeys = useUnlockedKeys('decrypt');
  const session = useSecuPassSession();
  const [phase, setPhase] = useState<EncryptedSubmissions['phase']>('locked');
  const [all, setAll] = useState<EncryptedSubmissions['all']>(null);
  const [results, setResults] = useState<ReadonlyMap<string, DecryptedSubmission>>(new Map());
  const alive = useRef(true);
  const running = useRef(false);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const decrypt = useCallback(async () => {
    if (running.current) return;
    const keys = await unlockedKeys();
    if (!keys || !alive.current) return;
    running.current = true;
    setPhase('decrypting');
    try {
      const list = await allSubmissions(form.formUuid);
      if (!alive.current) return;
      setAll(list);
      const found = new Map<string, DecryptedSubmission>();
      for (const submission of list.submissions) {
        if (submission.state !== 'sent' || submission.deliveryUuid === null) continue;
        found.set(submission.deliveryUuid, await decryptSubmission(submission.deliveryUuid, keys, form.customFields));
        if (!alive.current) return;
        setResults(new Map(found));
      }
      setPhase('done');
    } catch (error) {
      console.debug('[forms] submissions not decrypted', error);
      if (alive.current) setPhase('error');
    } finally {
      running.current = false;
    }
  }, [unlockedKeys, form.formUuid, form.customFields]);

  // Keys already unlocked (this page's life): decrypt without asking.
  const unlocked = session !== null;
  useEffect(() => {
    if (enabled && unlocked && phase === 'locked') void decrypt();
  }, [enabled, unlocked, phase, decrypt]);

  return { phase, all, results, decrypt };
}
