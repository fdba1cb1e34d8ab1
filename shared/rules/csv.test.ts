import { expect, it } from 'vitest';
import { csvText } from './csv';

it('csvText: BOM, CRLF, ; for de and fr and , for en, quoting what holds the separator, a quote or a line break', () => {
  const rows = [['name', 'note'], ['Müller; Anna', 'said "hi"\nbye'], ['a,b', 1]];
  expect(csvText(rows, 'de')).toBe('\uFEFFname;note\r\n"Müller; Anna";"said ""hi""\nbye"\r\na,b;1\r\n');
  expect(csvText(rows, 'fr')).toBe(csvText(rows, 'de'));
  expect(csvText(rows, 'en')).toBe('\uFEFFname,note\r\nMüller; Anna,"said ""hi""\nbye"\r\n"a,b",1\r\n');
});
