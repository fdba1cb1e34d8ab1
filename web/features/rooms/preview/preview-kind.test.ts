import { describe, expect, it } from 'vitest';
import { isOfficeName, kindOfType, sniffPreview } from './preview-kind';

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('preview kinds', () => {
  it('maps the types the server answers to a viewer', () => {
    expect(kindOfType('text/markdown; charset=utf-8')).toBe('markdown');
    expect(kindOfType('application/json; charset=utf-8')).toBe('json');
    expect(kindOfType('text/csv; charset=utf-8')).toBe('csv');
    expect(kindOfType('text/plain; charset=utf-8')).toBe('text');
    expect(kindOfType('application/pdf')).toBe('pdf');
    expect(kindOfType('video/mp4')).toBe('video');
    expect(kindOfType('audio/mpeg')).toBe('audio');
    expect(kindOfType('image/webp')).toBe('image');
    expect(kindOfType('application/zip')).toBeNull();
  });

  it('sniffs decrypted bytes: signatures first, text kinds by declared type or name, never text with a NUL', () => {
    expect(sniffPreview(bytes([0x89], 'PNG\r\n'), 'a.txt', 'text/plain')).toEqual({ kind: 'image', type: 'image/png' });
    expect(sniffPreview(bytes('%PDF-1.7'), 'a.md', '')).toEqual({ kind: 'pdf', type: 'application/pdf' });
    expect(sniffPreview(bytes([0, 0, 0, 0x18], 'ftypisom'), 'clip', '')).toEqual({ kind: 'video', type: 'video/mp4' });
    expect(sniffPreview(bytes('# Title'), 'notes.md', 'application/octet-stream')).toEqual({ kind: 'markdown', type: 'text/markdown' });
    expect(sniffPreview(bytes('a,b'), 'x', 'text/csv')).toEqual({ kind: 'csv', type: 'text/csv' });
    expect(sniffPreview(bytes('{}'), 'DATA.JSON', '')).toEqual({ kind: 'json', type: 'application/json' });
    expect(sniffPreview(bytes('text', [0], 'more'), 'a.txt', 'text/plain')).toBeNull();
    expect(sniffPreview(bytes('<html>'), 'page.html', 'text/html')).toBeNull();
  });

  it('knows office documents as download-only', () => {
    expect(isOfficeName('Report.DOCX')).toBe(true);
    expect(isOfficeName('sheet.xlsx')).toBe(true);
    expect(isOfficeName('notes.md')).toBe(false);
  });
});
