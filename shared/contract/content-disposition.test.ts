import { describe, expect, it } from 'vitest';
import { asciiFileName, contentDisposition, extendedFileName } from './content-disposition';
import { MAX_FILE_NAME_LENGTH } from './deliveries';

/** RFC 6266 `disposition-type; filename="quoted"; filename*=UTF-8''attr-chars-or-pct` — nothing else. */
const HEADER = /^(attachment|inline); filename="[\x20\x21\x23-\x24\x26-\x5b\x5d-\x7e]*"; filename\*=UTF-8''(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})*$/;

/** What a browser reads from `filename*`. */
const exactNameOf = (header: string) => decodeURIComponent(header.split("filename*=UTF-8''")[1]!);

describe('contentDisposition (RFC 6266 / RFC 8187)', () => {
  it.each([
    ['report.pdf', `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`],
    ['Bericht März.pdf', `attachment; filename="Bericht Marz.pdf"; filename*=UTF-8''Bericht%20M%C3%A4rz.pdf`],
    ['Größe Übersicht.xlsx', `attachment; filename="Gro_e Ubersicht.xlsx"; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%C3%9Cbersicht.xlsx`],
    ['🎉 party.png', `attachment; filename="_ party.png"; filename*=UTF-8''%F0%9F%8E%89%20party.png`],
    ['say "hi".txt', `attachment; filename="say _hi_.txt"; filename*=UTF-8''say%20%22hi%22.txt`],
    ['back\\slash.txt', `attachment; filename="back_slash.txt"; filename*=UTF-8''back%5Cslash.txt`],
    ["it's (final) *v2*.doc", `attachment; filename="it's (final) *v2*.doc"; filename*=UTF-8''it%27s%20%28final%29%20%2Av2%2A.doc`],
    ['100% sure.txt', `attachment; filename="100_ sure.txt"; filename*=UTF-8''100%25%20sure.txt`],
    ['line\r\nContent-Type: text/html.txt', `attachment; filename="line__Content-Type: text/html.txt"; filename*=UTF-8''line__Content-Type%3A%20text%2Fhtml.txt`],
    ['tab\there\u0000.txt', `attachment; filename="tab_here_.txt"; filename*=UTF-8''tab_here_.txt`],
    ['日本語.txt', `attachment; filename="___.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt`],
  ])('%j → known answer', (name, expected) => {
    const header = contentDisposition(name);
    expect(header).toBe(expected);
    expect(header).toMatch(HEADER);
  });

  it('inline when asked', () => {
    expect(contentDisposition('a.eml', 'inline')).toBe(`inline; filename="a.eml"; filename*=UTF-8''a.eml`);
  });

  it('keeps the exact name in filename* for everything but control characters', () => {
    for (const name of ['Bericht März.pdf', '🎉🎊.png', 'say "hi".txt', 'a\\b', "o'neil (1).txt", 'עברית.pdf', 'e\u0301.txt']) {
      expect(exactNameOf(contentDisposition(name))).toBe(name);
    }
    expect(exactNameOf(contentDisposition('a\r\nb'))).toBe('a__b');
  });

  it('turns a lone surrogate into U+FFFD instead of throwing', () => {
    const header = contentDisposition('bad\ud800name.txt');
    expect(header).toMatch(HEADER);
    expect(exactNameOf(header)).toBe('bad\ufffdname.txt');
    expect(asciiFileName('bad\udc00.txt')).toBe('bad_.txt');
  });

  it('a name of the longest allowed length is not shortened and stays one header line', () => {
    const ascii = `${'a'.repeat(MAX_FILE_NAME_LENGTH - 4)}.txt`;
    expect(contentDisposition(ascii)).toBe(`attachment; filename="${ascii}"; filename*=UTF-8''${ascii}`);
    const emoji = `${'😀'.repeat((MAX_FILE_NAME_LENGTH - 4) / 2 - 0.5)}.txt`;
    const header = contentDisposition(emoji);
    expect(header).toMatch(HEADER);
    expect(exactNameOf(header)).toBe(emoji);
    expect(asciiFileName(emoji)).toBe(`${'_'.repeat(125)}.txt`);
    expect(header.length).toBeLessThan(3_200);
  });

  it('falls back to "download" when nothing printable is left', () => {
    expect(asciiFileName('')).toBe('download');
    expect(asciiFileName('   ')).toBe('download');
    expect(extendedFileName('')).toBe("UTF-8''");
  });
});
