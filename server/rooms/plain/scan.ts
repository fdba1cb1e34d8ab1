// Virus scan and blocked types of plain-room files (SPEC §1, §3): the delivery scan's path —
// its one clamd client and the database job queue (virus-scan/scan-job.ts creates the client and
// runs this kind with it) — one job per committed content. E2E rooms are "not scanned".
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { blockedFile, parseFileTypeList, type FilePolicy } from '@shared/contract/file-policy';
import type { RoomScanState } from '@shared/contract/rooms';
import { sendRuleError } from '@shared/rules/send-rule-errors';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { HttpError } from '../../core/http-error';
import type { Database } from '../../db/schema';
import { enqueueJob, type JobKind } from '../../jobs/job-queue';
import { partsStream } from '../../uploads/bytes';
import type { ClamdClient } from '../../virus-scan/clamd';
import { ScannerError } from '../../virus-scan/clamd';
import { layoutOf } from '../kind/file-rows';
import { isSecureRoom, type RoomKindFlag } from '../kind/room-kind';

export const ROOM_SCAN_JOB = 'roomFileScan';
/** The content is named by its blob prefix: a newer version of the file has another one. */
export interface RoomScanPayload {
  fileId: number;
  blobPrefix: string;
}

/**
 * The same admin setting as deliveries (`kuvert.delivery.blockedExtensions` / `blockedMimeTypes`)
 * refuses the file at its announcement, with the delivery's error (400 FileNotAllowedException).
 */
/** The administrator's blocked types (the delivery settings, shared with rooms). */
export async function blockPolicy(app: FastifyInstance): Promise<FilePolicy> {
  const all = await app.settings.getAll();
  return { blockedExtensions: parseFileTypeList(all[DELIVERY_SETTING_KEYS.blockedExtensions]), blockedMimeTypes: parseFileTypeList(all[DELIVERY_SETTING_KEYS.blockedMimeTypes]) };
}

export async function checkFileType(app: FastifyInstance, file: { name: string; mimeType: string }): Promise<void> {
  const blocked = blockedFile(file, await blockPolicy(app));
  if (!blocked) return;
  const answer = sendRuleError({ code: 'blockedFileType', field: 'files', name: file.name, ...blocked });
  throw new HttpError(answer.status, answer.errorClass, answer.message, answer.metadata);
}

/** The state a committed content starts in: scanned when clamd is configured and the room is plain. */
export const initialScanState = (app: FastifyInstance, room: RoomKindFlag): RoomScanState =>
  app.config.clamdAddress !== undefined && !isSecureRoom(room) ? 'scanning' : 'notScanned';

/** Queues the scan of a content that starts `scanning` (inside the commit transaction). */
export async function queueRoomScan(trx: Kysely<Database>, state: string, payload: RoomScanPayload): Promise<void> {
  if (state === 'scanning') await enqueueJob(trx, ROOM_SCAN_JOB, payload);
}

const REFUSAL: Record<string, { reason: string; message: string }> = {
  scanning: { reason: 'scanInProgress', message: 'The file is being checked for viruses' },
  virusDetected: { reason: 'virusDetected', message: 'A virus was found in the file; it is blocked' },
  error: { reason: 'scanFailed', message: 'The virus scan of the file failed; it is blocked' },
};

/** 403 FileNotAllowedException (as a blocked delivery's file) unless the content is clean or not scanned. */
export function refuseUnlessScanned(file: { name: string; scan_state: string }): void {
  const refusal = REFUSAL[file.scan_state];
  if (refusal) throw new HttpError(403, 'FileNotAllowedException', refusal.message, { name: file.name, scanState: file.scan_state, reason: refusal.reason });
}

/** Sets the verdict on the content wherever it is now (the file, or a version after a newer upload). */
async function settle(db: Kysely<Database>, payload: RoomScanPayload, scan_state: string, scan_detail: string | null): Promise<void> {
  await db.updateTable('room_files').set({ scan_state, scan_detail }).where('id', '=', payload.fileId).where('blob_prefix', '=', payload.blobPrefix).where('scan_state', '=', 'scanning').execute();
  await db.updateTable('room_file_versions').set({ scan_state }).where('file_id', '=', payload.fileId).where('blob_prefix', '=', payload.blobPrefix).where('scan_state', '=', 'scanning').execute();
}

async function scanContent(app: FastifyInstance, clamd: ClamdClient, payload: RoomScanPayload, signal: AbortSignal): Promise<void> {
  const current = await app.db.selectFrom('room_files').select(['size', 'part_size', 'part_count']).where('id', '=', payload.fileId).where('blob_prefix', '=', payload.blobPrefix).executeTakeFirst();
  const earlier = current ?? (await app.db.selectFrom('room_file_versions').select(['size', 'part_size', 'part_count']).where('file_id', '=', payload.fileId).where('blob_prefix', '=', payload.blobPrefix).executeTakeFirst());
  // Purged meanwhile: nothing left to scan.
  if (!earlier) return;
  const layout = layoutOf(earlier);
  const verdict = await clamd.scan(partsStream(app.blobs, layout, (i) => `${payload.blobPrefix}/${i}`, 0, layout.size - 1), { signal });
  await settle(app.db, payload, verdict.infected ? 'virusDetected' : 'clean', verdict.infected ? verdict.viruses.join(', ') : null);
}

/** The room scan kind, run by virus-scan/scan-job.ts with its clamd client and the delivery scan's retry settings. */
export function roomScanJobs(app: FastifyInstance): (clamd: ClamdClient) => Record<string, JobKind<RoomScanPayload>> {
  return (clamd) => ({
    [ROOM_SCAN_JOB]: {
      maxAttempts: app.config.scanAttempts,
      retryDelayMs: app.config.scanRetryDelayMs,
      run: (payload, { signal }) => scanContent(app, clamd, payload, signal),
      // After the last attempt the file stays blocked ("error"), never clean.
      giveUp: async (payload, error) => {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        await settle(app.db, payload, 'error', error instanceof ScannerError ? message : `storage: ${message}`);
      },
    },
  });
}
