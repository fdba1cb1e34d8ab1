import { describe, expect, it } from 'vitest';
import { HttpError } from '../core/http-error';
import { previewType } from '../rooms/plain/preview';
import { detectType, isActiveType, refuseBlockedContent, servedType } from './content-type';
import { EXE_HEADER, LNK_HEADER, PNG_1X1 } from './content-type.test-helper';

const POLICY = { blockedExtensions: ['exe', 'lnk'], blockedMimeTypes: ['application/x-ms-shortcut'] };

describe('types from the bytes (file-type)', () => {
  it('detects binary types by their content, never by a name; text formats have none', async () => {
    expect(await detectType(EXE_HEADER)).toEqual({ ext: 'exe', mime: 'application/x-msdownload' });
    expect(await detectType(LNK_HEADER)).toEqual({ ext: 'lnk', mime: 'application/x-ms-shortcut' });
    expect(await detectType(PNG_1X1)).toEqual({ ext: 'png', mime: 'image/png' });
    expect(await detectType(Buffer.from('%PDF-1.7\n%âãÏÓ\n'))).toEqual({ ext: 'pdf', mime: 'application/pdf' });
    expect(await detectType(Buffer.from('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(await detectType(Buffer.from('plain words'))).toBeNull();
    expect(await detectType(new Uint8Array())).toBeNull();
  });

  it('refuses at commit what the policy blocks by content, with the detected type', () => {
    let refused: unknown;
    try {
      refuseBlockedContent('report.pdf', { ext: 'exe', mime: 'application/x-msdownload' }, POLICY);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 400, errorClass: 'FileNotAllowedException', metadata: { name: 'report.pdf', extension: 'exe', mimeType: 'application/x-msdownload', reason: 'blockedContent' } });
    expect(() => refuseBlockedContent('a.lnk.txt', { ext: 'lnk', mime: 'application/x-ms-shortcut' }, { blockedExtensions: [], blockedMimeTypes: ['application/x-ms-shortcut'] })).toThrow(HttpError);
    expect(() => refuseBlockedContent('photo.png', { ext: 'png', mime: 'image/png' }, POLICY)).not.toThrow();
    expect(() => refuseBlockedContent('notes.txt', null, POLICY)).not.toThrow();
  });

  it('never serves a declared active type as such', () => {
    for (const type of ['text/html', 'TEXT/HTML; charset=utf-8', 'image/svg+xml', 'application/xhtml+xml', 'application/xml', 'text/xml', 'application/rss+xml', 'text/javascript', 'application/javascript']) {
      expect(isActiveType(type), type).toBe(true);
      expect(servedType(type), type).toBe('application/octet-stream');
    }
    for (const type of ['application/pdf', 'image/png', 'text/plain', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document']) expect(servedType(type)).toBe(type);
  });

  it('previews what the bytes are: an image only when they are one, text only without a binary signature', () => {
    expect(previewType('image/png', { ext: 'png', mime: 'image/png' })).toBe('image/png');
    expect(previewType('text/plain', { ext: 'png', mime: 'image/png' })).toBe('image/png');
    expect(previewType('image/png', null)).toBeNull();
    expect(previewType('image/png', { ext: 'exe', mime: 'application/x-msdownload' })).toBeNull();
    expect(previewType('text/plain', null)).toBe('text/plain; charset=utf-8');
    // Text kinds keep their own type (the browser picks the viewer by it), always UTF-8; an
    // undeclared type goes by the name's extension (browsers send none for .md).
    expect(previewType('text/csv', null)).toBe('text/csv; charset=utf-8');
    expect(previewType('application/octet-stream', null, 'notes.md')).toBe('text/markdown; charset=utf-8');
    expect(previewType('application/octet-stream', null, 'tool.exe')).toBeNull();
    expect(previewType('text/html', null, 'page.md')).toBeNull();
    expect(previewType('text/html', null)).toBeNull();
    expect(previewType('image/svg+xml', null)).toBeNull();
    expect(previewType('text/plain', { ext: 'pdf', mime: 'application/pdf' })).toBe('application/pdf');
  });
});
