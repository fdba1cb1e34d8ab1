import { FILE_NAME_PROBLEMS } from '@shared/contract/deliveries';
import { ERROR_CLASSES } from '@shared/contract/errors';
import { describe, expect, it } from 'vitest';
import { problemFromValidation, SEND_RULE_ERRORS, sendProblemTextKey, sendRuleError } from './send-rule-errors';
import { SAMPLES } from './send-problem-samples';
import type { SendProblem, SendProblemCode } from './send-rules';

const samples: SendProblem[] = Object.values(SAMPLES);

describe('send rule → §8 error table', () => {
  it('has a row for every rule, each naming a §8 class, a 4xx status and a text key', () => {
    expect(Object.keys(SEND_RULE_ERRORS).sort()).toEqual(Object.keys(SAMPLES).sort());
    for (const problem of samples) {
      const answer = sendRuleError(problem);
      expect(ERROR_CLASSES, problem.code).toContain(answer.errorClass);
      expect(answer.status, problem.code).toBe(400);
      expect(answer.message, problem.code).not.toBe('');
      expect(sendProblemTextKey(problem), problem.code).toMatch(/^(problems|errors|fileNameProblems)\.\w+$/);
      // A ValidationException says which rule broke in `reason`: clients and tests rely on it.
      if (answer.errorClass === 'ValidationException') expect(answer.metadata.reason, problem.code).toBe(SEND_RULE_ERRORS[problem.code].reason);
    }
  });

  it('answers each rule with the class and figures the server has always sent (server/README.md error table)', () => {
    expect(sendRuleError(SAMPLES.subjectTooLong)).toEqual({
      status: 400,
      errorClass: 'MaxSubjectLengthException',
      message: 'The subject is longer than 255 characters',
      metadata: { maxLength: 255, length: 256 },
    });
    expect(sendRuleError(SAMPLES.recipientNotAllowed)).toMatchObject({ errorClass: 'RecipientNotAllowedException', metadata: { recipients: ['x@banned.example'] } });
    expect(sendRuleError(SAMPLES.blockedFileType)).toMatchObject({ errorClass: 'FileNotAllowedException', metadata: { name: 'a.exe', extension: 'exe', mimeType: 'application/octet-stream' } });
    expect(sendRuleError(SAMPLES.filesOrMessageRequired)).toMatchObject({ errorClass: 'DeliveryWithoutFilesNotAllowedException', metadata: { fileCount: 0 } });
    expect(sendRuleError(SAMPLES.invalidFileName).metadata).toEqual({ field: 'name', reason: 'invalidFileName', nameProblem: 'invalidCharacters', name: 'a:b', maxLength: 255 });
    expect(sendRuleError(SAMPLES.zeroByteFile).metadata).toEqual({ field: 'size', reason: 'zeroByteFile', name: 'e.txt' });
    expect(sendRuleError(SAMPLES.securityLevelNotAllowed).metadata).toEqual({ field: 'securityLevel', reason: 'notAllowed', allowed: [10, 30] });
    expect(sendRuleError(SAMPLES.messageNotEncrypted).metadata).toEqual({ field: 'body', reason: 'encryptedMessage' });
  });

  it('turns the server\'s ValidationException back into the same problem the form shows (round trip through the table)', () => {
    const roundTrips: SendProblemCode[] = [];
    for (const problem of samples) {
      const answer = sendRuleError(problem);
      if (answer.errorClass !== 'ValidationException' || !SEND_RULE_ERRORS[problem.code].fromMetadata) continue;
      expect(problemFromValidation(answer.metadata), problem.code).toEqual(problem);
      roundTrips.push(problem.code);
    }
    expect(roundTrips).toEqual([
      'recipientsRequired',
      'invalidEmail',
      'tooManyRecipients',
      'subjectRequired',
      'zeroByteFile',
      'duplicateFileName',
      'invalidFileName',
      'validityOutOfRange',
      'validityNotChoosable',
      'validityNotExpiring',
      'noSecurityLevelAllowed',
      'securityLevelNotAllowed',
    ]);
    // Two rules share the reason `required`: the field tells them apart.
    expect(problemFromValidation({ field: 'subject', reason: 'required' })).toEqual(SAMPLES.subjectRequired);
    expect(problemFromValidation({ field: 'body', reason: 'required' })).toBeUndefined();
  });

  it('takes nothing from a server it does not understand: unknown reasons, foreign levels and name problems', () => {
    expect(problemFromValidation({ field: 'x', reason: 'sha256Mismatch' })).toBeUndefined();
    expect(problemFromValidation({})).toBeUndefined();
    expect(problemFromValidation({ field: 'securityLevel', reason: 'notAllowed', allowed: [10, 15, '20', 30] })).toEqual(SAMPLES.securityLevelNotAllowed);
    expect(problemFromValidation({ field: 'name', reason: 'invalidFileName', name: 'x', maxLength: 255, nameProblem: 'madeUp' })).toEqual({
      code: 'invalidFileName',
      field: 'files',
      name: 'x',
      maxLength: 255,
    });
    for (const nameProblem of FILE_NAME_PROBLEMS) {
      expect(sendProblemTextKey({ code: 'invalidFileName', field: 'files', name: 'x', maxLength: 255, nameProblem })).toBe(`fileNameProblems.${nameProblem}`);
    }
    expect(sendProblemTextKey({ ...SAMPLES.blockedFileType, by: 'mimeType' })).toBe('problems.blockedMimeType');
  });
});
