import { MAX_BODY_LENGTH, MAX_SUBJECT_LENGTH } from '@shared/contract/deliveries';
import { blockedFile, parseFileTypeList } from '@shared/contract/file-policy';
import { describe, expect, it } from 'vitest';
import { sendConfigFixture } from './test-fixtures';
import {
  allowedSecurityLevels,
  bannedRecipientsProblem,
  checkFiles,
  checkSendForm,
  contentProblem,
  duplicateFileNameProblem,
  fileCountProblem,
  fileNameProblem,
  fileProblems,
  messageProblems,
  minimalSecurityLevel,
  recipientProblems,
  securityLevelRule,
  validityBounds,
  validityChoice,
  validityRule,
  type SendForm,
} from './send-rules';

const DAY = 86_400_000;
const config = sendConfigFixture;
const form = (overrides: Partial<SendForm> = {}): SendForm => ({
  recipients: ['bob@example.test'],
  subject: 'Figures',
  body: 'Hello',
  files: [{ name: 'a.pdf', size: 10 }],
  ...overrides,
});
const codes = (f: SendForm, c = config()) => checkSendForm(f, c).map((p) => p.code);

describe('send rules (SPEC §5)', () => {
  it('accepts a complete form', () => {
    expect(checkSendForm(form(), config())).toEqual([]);
    expect(checkSendForm(form({ files: [] }), config())).toEqual([]); // a message alone is enough
    expect(checkSendForm(form({ body: '' }), config())).toEqual([]); // files alone too
  });

  it('recipients: at least one, valid addresses, both lists', () => {
    expect(codes(form({ recipients: [' ', ''] }))).toEqual(['recipientsRequired']);
    expect(checkSendForm(form({ recipients: ['ok@example.test', 'nope'], additionalRecipients: ['also@bad'] }), config())).toEqual([
      { code: 'invalidEmail', field: 'recipients', invalid: ['nope'] },
      { code: 'invalidEmail', field: 'additionalRecipients', invalid: ['also@bad'] },
    ]);
    const many = Array.from({ length: 101 }, (_, i) => `r${i}@example.test`);
    expect(checkSendForm(form({ recipients: many }), config())).toEqual([{ code: 'tooManyRecipients', field: 'recipients', maxRecipients: 100, count: 101 }]);
  });

  it('subject required, subject and body max lengths from the contract', () => {
    expect(codes(form({ subject: '  ' }))).toEqual(['subjectRequired']);
    expect(checkSendForm(form({ subject: 'x'.repeat(MAX_SUBJECT_LENGTH + 1) }), config())).toEqual([
      { code: 'subjectTooLong', field: 'subject', maxLength: MAX_SUBJECT_LENGTH, length: MAX_SUBJECT_LENGTH + 1 },
    ]);
    expect(codes(form({ subject: 'x'.repeat(MAX_SUBJECT_LENGTH) }))).toEqual([]);
    expect(checkSendForm(form({ body: 'x'.repeat(MAX_BODY_LENGTH + 1) }), config())).toEqual([
      { code: 'bodyTooLong', field: 'body', maxLength: MAX_BODY_LENGTH, length: MAX_BODY_LENGTH + 1 },
    ]);
  });

  it('needs files or a message', () => {
    expect(codes(form({ files: [], body: '   ' }))).toEqual(['filesOrMessageRequired']);
  });

  it('files: 0 bytes, duplicate names (case-insensitive), invalid characters', () => {
    expect(checkFiles([{ name: 'empty.txt', size: 0 }])).toEqual([{ code: 'zeroByteFile', field: 'files', name: 'empty.txt' }]);
    expect(checkFiles([{ name: 'Report.pdf', size: 1 }, { name: 'report.PDF', size: 2 }])).toEqual([{ code: 'duplicateFileName', field: 'files', name: 'report.PDF' }]);
    for (const name of ['a/b.txt', 'a:b.txt', 'what?.txt', 'tab\there.txt', 'trailing.', '', ' lead.txt', '..', 'x'.repeat(256)]) {
      expect(checkFiles([{ name, size: 1 }]).map((p) => p.code), name).toEqual(['invalidFileName']);
    }
    expect(checkFiles([{ name: 'Bericht März (final).pdf', size: 1 }])).toEqual([]);
  });

  it('file names: each refused class names its reason, on the NFC form', () => {
    const reasons: [string, string][] = [
      ['', 'blank'],
      ['x'.repeat(256), 'tooLong'],
      [' lead.txt', 'surroundingBlanks'],
      ['a:b.txt', 'invalidCharacters'],
      ['bell\u0007.txt', 'invalidCharacters'],
      ['c1\u009b.txt', 'invalidCharacters'],
      ['..', 'invalidCharacters'],
      ['invoice\u202Efdp.exe', 'bidiControl'],
      ['x\u2067y.pdf', 'bidiControl'],
      ['x\u061Cy.pdf', 'bidiControl'],
      ['pay\u200Dment.pdf', 'zeroWidth'],
      ['\uFEFFbom.txt', 'zeroWidth'],
      ['PRN', 'reservedName'],
      ['aux.c', 'reservedName'],
      ['com7.tar.gz', 'reservedName'],
      ['LPT1', 'reservedName'],
      ['report.', 'trailingDotOrSpace'],
    ];
    for (const [name, nameProblem] of reasons) {
      expect(fileNameProblem(name), JSON.stringify(name)).toBe(nameProblem);
      expect(checkFiles([{ name, size: 1 }]), JSON.stringify(name)).toEqual([{ code: 'invalidFileName', field: 'files', name, maxLength: 255, nameProblem }]);
    }
    for (const name of ['console.txt', 'COM0.txt', 'COM10', 'aux-notes.txt', 'LPT.pdf', 'Bericht\u00a0final.pdf']) expect(fileNameProblem(name), name).toBeUndefined();
    // NFD (macOS) and NFC spellings are one name: the check and the duplicate test see NFC.
    expect(fileNameProblem('Cafe\u0301.txt')).toBeUndefined();
    expect(checkFiles([{ name: 'Cafe\u0301.txt', size: 1 }, { name: 'Caf\u00e9.txt', size: 1 }]).map((p) => p.code)).toEqual(['duplicateFileName']);
  });

  it('files: the forbidden types of the policy, by the last extension (any case) or the declared type', () => {
    const policy = { blockedExtensions: parseFileTypeList('exe, .BAT ,cmd'), blockedMimeTypes: parseFileTypeList('video/*,application/x-msdownload') };
    const files = [
      { name: 'setup.exe', size: 5 },
      { name: 'Report.PDF.EXE', size: 5 },
      { name: 'tool.bat', size: 5, mimeType: '' },
      { name: 'clip.bin', size: 5, mimeType: 'Video/MP4; codecs=avc1' },
      { name: 'renamed.txt', size: 5, mimeType: 'application/x-msdownload' },
      { name: 'exe.pdf', size: 5, mimeType: 'application/pdf' },
      { name: 'exe', size: 5 },
    ];
    expect(checkFiles(files, policy)).toEqual([
      { code: 'blockedFileType', field: 'files', name: 'setup.exe', by: 'extension', extension: 'exe', mimeType: 'application/octet-stream' },
      { code: 'blockedFileType', field: 'files', name: 'Report.PDF.EXE', by: 'extension', extension: 'exe', mimeType: 'application/octet-stream' },
      { code: 'blockedFileType', field: 'files', name: 'tool.bat', by: 'extension', extension: 'bat', mimeType: 'application/octet-stream' },
      { code: 'blockedFileType', field: 'files', name: 'clip.bin', by: 'mimeType', extension: 'bin', mimeType: 'video/mp4' },
      { code: 'blockedFileType', field: 'files', name: 'renamed.txt', by: 'mimeType', extension: 'txt', mimeType: 'application/x-msdownload' },
    ]);
    // Without a policy (an older server's send config) nothing is marked; the server still refuses.
    expect(checkFiles(files)).toEqual([]);
    // The send form takes the policy from the send config.
    expect(codes(form({ files: [{ name: 'a.pdf', size: 1 }, { name: 'run.CMD', size: 1 }] }), config({ filePolicy: policy }))).toEqual(['blockedFileType']);
    expect(codes(form({ files: [{ name: 'a.pdf', size: 1 }] }), config({ filePolicy: policy }))).toEqual([]);
    // The same function the server calls in checkFile.
    expect(blockedFile({ name: 'a.Exe', mimeType: 'text/plain' }, policy)).toEqual({ by: 'extension', extension: 'exe', mimeType: 'text/plain' });
    expect(blockedFile({ name: 'a.txt', mimeType: 'text/plain' }, policy)).toBeNull();
  });

  it('validity: cleanup bounds in days rounded up, default 90 held inside, fixed or permanent', () => {
    expect(validityBounds(config({ deliveryCleanupExpirationMin: DAY + 1, deliveryCleanupExpirationMax: 30 * DAY + 1 }))).toEqual({ min: 2, max: 31 });
    expect(validityBounds(config({ deliveryCleanupExpirationMin: 0, deliveryCleanupExpirationMax: 0 }))).toEqual({ min: 1, max: 1 });
    expect(validityChoice(config({ deliveryCleanupExpirationMax: 30 * DAY }))).toEqual({ kind: 'range', min: 1, max: 30, defaultDays: 30 });
    expect(validityChoice(config({ deliveryCleanupCustomExpiration: false }))).toEqual({ kind: 'fixed', days: 90 });
    expect(validityChoice(config({ deliveryCleanupEnabled: false }))).toEqual({ kind: 'permanent' });

    const c = config({ deliveryCleanupExpirationMin: 2 * DAY, deliveryCleanupExpirationMax: 10 * DAY });
    expect(checkSendForm(form({ validityDays: 11 }), c)).toEqual([{ code: 'validityOutOfRange', field: 'validityDays', min: 2, max: 10 }]);
    expect(codes(form({ validityDays: 1 }), c)).toEqual(['validityOutOfRange']);
    expect(codes(form({ validityDays: null }), c)).toEqual(['validityOutOfRange']);
    expect(codes(form({ validityDays: 10 }), c)).toEqual([]);
    expect(codes(form({ validityDays: 5 }), config({ deliveryCleanupCustomExpiration: false }))).toEqual(['validityNotChoosable']);
    expect(codes(form({ validityDays: 5 }), config({ deliveryCleanupEnabled: false }))).toEqual(['validityNotExpiring']);
    expect(codes(form({ validityDays: null }), config({ deliveryCleanupEnabled: false }))).toEqual([]);
  });

  it('security levels: allowed by the send config, minimal = first allowed in LEVEL_1..4 order', () => {
    const c = config({ allowSecurityLevel1: false, allowSecurityLevel3: false });
    expect(allowedSecurityLevels(c)).toEqual([10, 30]);
    expect(minimalSecurityLevel(c)).toBe(10);
    expect(minimalSecurityLevel(config({ allowSecurityLevel1: false, allowSecurityLevel2: false, allowSecurityLevel3: false }))).toBe(30);
    expect(checkSendForm(form({ securityLevel: 0 }), c)).toEqual([{ code: 'securityLevelNotAllowed', field: 'securityLevel', allowed: [10, 30] }]);
    expect(codes(form({ securityLevel: 30 }), c)).toEqual([]);
    const none = config({ allowSecurityLevel1: false, allowSecurityLevel2: false, allowSecurityLevel3: false, allowSecurityLevel4: false });
    expect(minimalSecurityLevel(none)).toBeUndefined();
    expect(codes(form(), none)).toEqual(['noSecurityLevelAllowed']);
  });

  describe('the single rules the server calls too (server/deliveries/rules.ts)', () => {
    it('recipients: normalised, additional ones minus main ones, the first problems in server order', () => {
      expect(recipientProblems([' Bob@Example.test ', 'bob@example.test'], ['BOB@example.test', 'carol@example.test'])).toEqual({
        recipients: ['bob@example.test'],
        additional: ['carol@example.test'],
        problems: [],
      });
      expect(recipientProblems([], ['x@example.test']).problems).toEqual([{ code: 'recipientsRequired', field: 'recipients' }]);
      expect(recipientProblems(['nope'], ['also@bad']).problems.map((p) => p.code)).toEqual(['invalidEmail', 'invalidEmail']);
      const many = Array.from({ length: 60 }, (_, i) => `r${i}@example.test`);
      expect(recipientProblems(many, many.map((a) => a.replace('r', 'a'))).problems).toEqual([{ code: 'tooManyRecipients', field: 'recipients', maxRecipients: 100, count: 120 }]);
    });

    it('banned addresses and @domains', () => {
      expect(bannedRecipientsProblem(['a@ok.test', 'b@evil.test', 'c@x.test'], ['@evil.test', 'c@x.test'])).toEqual({
        code: 'recipientNotAllowed',
        field: 'recipients',
        recipients: ['b@evil.test', 'c@x.test'],
      });
      expect(bannedRecipientsProblem(['a@ok.test'], [])).toBeUndefined();
    });

    it('level 4 on the wire: plain subject and body must be empty; a form with the plaintext gets the usual limits', () => {
      expect(messageProblems({ subject: '', body: '' }, true)).toEqual([]);
      expect(messageProblems({ subject: 'Secret', body: '' }, true)).toEqual([{ code: 'messageNotEncrypted', field: 'subject' }]);
      expect(messageProblems({ subject: '', body: 'Secret' }, true)).toEqual([{ code: 'messageNotEncrypted', field: 'body' }]);
      expect(messageProblems({ subject: '', body: '' }).map((p) => p.code)).toEqual(['subjectRequired']);
      expect(contentProblem(0, '', true)).toBeUndefined();
      expect(contentProblem(0, ' ')).toEqual({ code: 'filesOrMessageRequired', field: 'files' });
      expect(contentProblem(1, '')).toBeUndefined();
    });

    it('one file: NFC name, a type/subtype type, then 0 bytes and forbidden types', () => {
      expect(fileProblems({ name: 'Cafe\u0301.txt', size: 1, mimeType: '' })).toEqual({ name: 'Caf\u00e9.txt', problems: [] });
      expect(fileProblems({ name: 'a.bin', size: 1, mimeType: 'nonsense' }).problems).toEqual([{ code: 'invalidMimeType', field: 'files', name: 'a.bin', mimeType: 'nonsense' }]);
      // A bad name hides the 0-byte problem (one answer per file, as the server gives).
      expect(fileProblems({ name: 'a:b', size: 0, mimeType: '' }).problems.map((p) => p.code)).toEqual(['invalidFileName']);
      expect(fileCountProblem(500)).toBeUndefined();
      expect(fileCountProblem(501)).toEqual({ code: 'tooManyFiles', field: 'files', maxFiles: 500, count: 501 });
      expect(duplicateFileNameProblem('REPORT.pdf', ['a.txt', 'report.PDF'])).toEqual({ code: 'duplicateFileName', field: 'files', name: 'REPORT.pdf' });
      expect(duplicateFileNameProblem('report.pdf', ['a.txt'])).toBeUndefined();
    });

    it('validity and level resolve to the stored value or name the broken rule', () => {
      expect(validityRule(undefined, config())).toEqual({ ok: true, value: 90 });
      expect(validityRule(7, config())).toEqual({ ok: true, value: 7 });
      expect(validityRule(undefined, config({ deliveryCleanupEnabled: false }))).toEqual({ ok: true, value: null });
      expect(validityRule(90, config({ deliveryCleanupCustomExpiration: false }))).toEqual({ ok: true, value: 90 });
      expect(validityRule(null, config({ deliveryCleanupCustomExpiration: false }))).toEqual({ ok: false, problem: { code: 'validityNotChoosable', field: 'validityDays', validityDays: 90 } });
      expect(securityLevelRule(undefined, config({ allowSecurityLevel1: false }))).toEqual({ ok: true, value: 10 });
      expect(securityLevelRule(20, config({ allowSecurityLevel3: false }))).toEqual({ ok: false, problem: { code: 'securityLevelNotAllowed', field: 'securityLevel', allowed: [0, 10, 30] } });
    });
  });
});
