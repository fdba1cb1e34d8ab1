// Files the preview browser tests open (tests/e2e/rooms-preview.spec.ts, rooms-e2e-preview.spec.ts).

/** A 1×1 red PNG. */
export const PNG_DOT = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** An MP4 file's first box (`ftyp`, brand isom: video/mp4 from the bytes) and `filler` bytes. */
export const mp4Head = (filler: number) => Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(filler, 7)]);

/** "{{name}}" placeholders of a locale text filled in. */
export const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');

/**
 * A one-page PDF (a few hundred bytes) with a correct cross-reference table; `padBytes` adds an
 * unreferenced stream of that many bytes (a large file whose first page is as quick to draw).
 */
export function smallPdf(text: string, padBytes = 0): Buffer {
  const content = `BT /F1 12 Tf 20 50 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...(padBytes > 0 ? [`<< /Length ${padBytes} >>\nstream\n${'x'.repeat(padBytes)}\nendstream`] : []),
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * A WAV file (PCM, mono, 8-bit, `rate` samples a second — 8 kHz by default) of `seconds` of a quiet tone: a format every Chromium build
 * plays, made here because the test machine has no encoder. Its length lets a seek land records
 * past the first (shared/crypto/stream-format.ts record size).
 */
export function toneWav(seconds: number, rate = 8000): Buffer {
  const samples = rate * seconds;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // bytes per second
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples, 40);
  const data = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++) data[i] = 128 + Math.round(20 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return Buffer.concat([header, data]);
}
