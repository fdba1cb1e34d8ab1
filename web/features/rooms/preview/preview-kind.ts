// Which viewer shows a previewed file (issue 31 §3; DESIGN §9 "Preview and edit"): from the type the
// server answers (plain rooms: it sniffed the bytes, server/rooms/plain/preview.ts) or, in a Secure
// room, from the decrypted bytes themselves — the same signatures, the text kinds by declared type
// or name. Office formats are download-only.
import { PREVIEW_TEXT_EXTENSIONS } from '@shared/contract/room-ops';

export type PreviewKind = 'image' | 'pdf' | 'audio' | 'video' | 'text' | 'markdown' | 'csv' | 'json';
export const EDITABLE_KINDS: readonly PreviewKind[] = ['text', 'markdown', 'csv', 'json'];

const TEXT_KIND: Record<string, PreviewKind> = { 'text/plain': 'text', 'text/markdown': 'markdown', 'text/csv': 'csv', 'application/json': 'json' };

/** The viewer for a Content-Type the preview answered; null: none of ours. */
export function kindOfType(contentType: string): PreviewKind | null {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (TEXT_KIND[type]) return TEXT_KIND[type];
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return null;
}

const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The binary type the first bytes show (the signatures file-type checks on the server for the same kinds). */
function binaryType(head: Uint8Array): string | null {
  if (head[0] === 0x89 && ascii(head, 1, 'PNG')) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(head, 0, 'GIF8')) return 'image/gif';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'image/webp';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'audio/wav';
  if (ascii(head, 0, '%PDF-')) return 'application/pdf';
  if (ascii(head, 4, 'ftyp')) return ascii(head, 8, 'M4A ') ? 'audio/mp4' : 'video/mp4';
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'video/webm';
  if (ascii(head, 0, 'OggS')) return 'audio/ogg';
  if (ascii(head, 0, 'fLaC')) return 'audio/flac';
  if (ascii(head, 0, 'ID3') || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'audio/mpeg';
  return null;
}

/** What a decrypted file is shown as: its bytes' type, else a text kind by declared type or name (never for bytes with a NUL); null: no preview. */
export function sniffPreview(head: Uint8Array, name: string, declared: string): { kind: PreviewKind; type: string } | null {
  const binary = binaryType(head);
  if (binary) return { kind: kindOfType(binary)!, type: binary };
  if (head.includes(0)) return null;
  const bare = declared.split(';')[0]!.trim().toLowerCase();
  const byName = PREVIEW_TEXT_EXTENSIONS[/\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''];
  const type = TEXT_KIND[bare] ? bare : byName;
  return type ? { kind: TEXT_KIND[type]!, type } : null;
}

const OFFICE = /\.(docx?|xlsx?|pptx?|odt|ods|odp|rtf)$/i;

/** Office documents: no viewer here (no office server), only the download (DESIGN §9). */
export const isOfficeName = (name: string): boolean => OFFICE.test(name);
