import { toApiError } from '@shared/api/api-error';
import { ContactKeyChangedError } from '@shared/crypto/errors';
import { toSendError } from '@shared/deliveries';
import { SAMPLES } from '@shared/rules/send-problem-samples';
import { describe, expect, it } from 'vitest';
import en from '@locales/en/addin.json';
import { ADDIN_ERROR_KEYS, messageOfProblem, messageOfSendError } from './addin-errors';

const refusal = (status: number, error: string, metadata: Record<string, unknown> = {}) =>
  toSendError(toApiError(status, '', new Headers({ 'content-type': 'application/json' }), { uuid: 'u', requestUri: '/x', error, message: 'm', metadata }));

describe('add-in messages (SPEC §8)', () => {
  it('maps the form problems to the add-in errors', () => {
    expect(messageOfProblem({ code: 'recipientsRequired', field: 'recipients' }).key).toBe(ADDIN_ERROR_KEYS.noRecipient);
    expect(messageOfProblem({ code: 'subjectRequired', field: 'subject' }).key).toBe(ADDIN_ERROR_KEYS.noSubject);
    expect(messageOfProblem({ code: 'noSecurityLevelAllowed', field: 'securityLevel' }).key).toBe(ADDIN_ERROR_KEYS.noSecurityLevelPermission);
    expect(messageOfProblem({ code: 'blockedFileType', field: 'files', name: 'setup.exe', by: 'extension', extension: 'exe', mimeType: 'application/octet-stream' })).toEqual({
      key: 'addin:delivery.fileNotAllowed',
      values: { name: 'setup.exe' },
    });
  });

  it('has a text for every form problem, with every value it names', () => {
    for (const problem of Object.values(SAMPLES)) {
      const { key, values = {} } = messageOfProblem(problem);
      expect(key, problem.code).not.toBe(ADDIN_ERROR_KEYS.unknown);
      const [namespace, path] = key.split(':');
      expect(namespace, problem.code).toBe('addin');
      const text = path!.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);
      expect(typeof text, `${problem.code} → ${key}`).toBe('string');
      for (const [, name] of (text as string).matchAll(/\{\{(\w+)\}\}/g)) expect(values, `${key} needs {{${name}}}`).toHaveProperty(name!);
    }
  });

  it('maps the server refusals, with their figures', () => {
    expect(messageOfSendError(refusal(403, 'AccessDeniedException')).key).toBe(ADDIN_ERROR_KEYS.forbidden);
    expect(messageOfSendError(refusal(400, 'FileNotAllowedException', { name: 'a.exe', extension: 'exe', mimeType: '' }))).toEqual({
      key: 'addin:delivery.fileNotAllowed',
      values: { name: 'a.exe' },
    });
    expect(messageOfSendError(refusal(507, 'GlobalQuotaReachedException', { spaceAvailable: 1048576, spaceRequired: 3 * 1048576 })).values).toEqual({ available: '1', required: '3' });
    expect(messageOfSendError(refusal(500, 'InternalServerException')).key).toBe(ADDIN_ERROR_KEYS.unknown);
  });

  it('maps the level 3/4 failures: a changed recipient key and a failed encryption', () => {
    expect(messageOfSendError(toSendError(new ContactKeyChangedError('changed'))).key).toBe('addin:delivery.keyChanged');
    expect(messageOfSendError({ ...toSendError(new ContactKeyChangedError('changed')), code: 'encryption' }).key).toBe('addin:delivery.encryption');
  });
});
