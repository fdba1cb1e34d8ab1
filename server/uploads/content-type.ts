// The type of an uploaded file from its bytes (never from its name or the type the uploader
// declared), with `file-type`: wherever a type decides something — the administrator's blocked types
// at commit, the preview, the virus scan's second look — and what a download may be served as.
import { blockedFile, bareMimeType, type FilePolicy } from '@shared/contract/file-policy';
import { fileTypeFromBuffer } from 'file-type';
import { HttpError } from '../core/http-error';
import type { BlobStore } from '../storage/blob-store';
import { partsStream } from './bytes';
import type { PartLayout } from './parts';

/** Bytes read from the start of a file: what file-type needs for nearly every type (its `reasonableDetectionSizeInBytes`, not exported). */
export const DETECTION_BYTES = 4100;

export interface DetectedType {
  /** Without the dot, lower case, as the blocked-extension list is written. */
  ext: string;
  mime: string;
}

/**
 * file-type names a few types by MIME types of its own; the blocked-types setting and its defaults
 * (settings/defaults.ts) use the common names. A Windows shortcut (.lnk, file-type checks its full
 * 20-byte header and CLSID) and a DOS/Windows program ("MZ") are both known to file-type, so no
 * signature of our own is kept.
 */
const COMMON_MIME: Record<string, string> = { 'application/x.ms.shortcut': 'application/x-ms-shortcut' };

/** The type the first bytes show, or null when file-type knows none (text formats above all: HTML, SVG, CSV have no signature). */
export async function detectType(head: Uint8Array): Promise<DetectedType | null> {
  if (head.length === 0) return null;
  const hit = await fileTypeFromBuffer(head.subarray(0, DETECTION_BYTES));
  if (!hit) return null;
  return { ext: hit.ext.toLowerCase(), mime: COMMON_MIME[hit.mime] ?? hit.mime };
}

/** The first DETECTION_BYTES of a stored (complete) file, read from its first part(s) only. */
export async function readHead(blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string): Promise<Uint8Array> {
  if (layout.size === 0) return new Uint8Array();
  const chunks: Buffer[] = [];
  for await (const chunk of partsStream(blobs, layout, keyOf, 0, Math.min(layout.size, DETECTION_BYTES) - 1)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The stored file's type from its bytes. */
export async function detectStoredType(blobs: BlobStore, layout: PartLayout, keyOf: (index: number) => string): Promise<DetectedType | null> {
  return detectType(await readHead(blobs, layout, keyOf));
}

/**
 * At commit: 400 FileNotAllowedException (as the announce answers a blocked name or declared type)
 * when the bytes are a type the policy blocks — a program renamed `report.pdf` and declared
 * `application/pdf` — with `reason: blockedContent` and the detected extension and type.
 */
export function refuseBlockedContent(name: string, detected: DetectedType | null, policy: FilePolicy): void {
  if (!detected) return;
  const blocked = blockedFile({ name: `content.${detected.ext}`, mimeType: detected.mime }, policy);
  if (!blocked) return;
  throw new HttpError(400, 'FileNotAllowedException', 'This file type is blocked by company policy', { name, extension: detected.ext, mimeType: detected.mime, reason: 'blockedContent' });
}

/**
 * Types a browser runs or renders as a document (scripts, markup that can carry scripts). A
 * download never goes out as one of them, whatever was declared: it is served as
 * application/octet-stream (besides `attachment`, `nosniff` and the sandbox CSP).
 */
const ACTIVE_TYPE = /^(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/xsl|application\/xslt\+xml|[a-z0-9.+-]+\/[a-z0-9.-]+\+xml|text\/javascript|application\/javascript|application\/x-javascript|text\/ecmascript|application\/ecmascript|text\/vbscript|application\/hta|multipart\/x-mixed-replace)$/;

export function isActiveType(mimeType: string): boolean {
  return ACTIVE_TYPE.test(bareMimeType(mimeType));
}

/** The Content-Type a stored file's download is answered with: the stored type unless it is active. */
export function servedType(mimeType: string): string {
  return isActiveType(mimeType) ? 'application/octet-stream' : mimeType;
}
