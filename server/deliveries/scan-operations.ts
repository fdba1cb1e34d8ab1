// What the virus-scan job (virus-scan/scan-job.ts) does with a delivery: read its files, log, mail
// the recipients after a clean scan. app.ts hands it to the job, so virus-scan/ never imports deliveries/.
import { DETECTION_BYTES, detectType } from '../uploads/content-type';
import type { DeliveryScanOperations } from '../virus-scan/scan-job';
import { fileStream } from './downloads';
import { activity } from './records';
import { notifyWithFreshTokens } from './sending';

/** The type of a committed file's first bytes (file-type), read from its first part(s) only. */
const sniff: DeliveryScanOperations['sniff'] = async (app, delivery, file) => {
  if (Number(file.size) === 0) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of fileStream(app, delivery, file, 0, Math.min(Number(file.size), DETECTION_BYTES) - 1)) chunks.push(chunk as Buffer);
  const detected = await detectType(Buffer.concat(chunks));
  return detected ? { extension: detected.ext, mimeType: detected.mime } : null;
};

export const deliveryScanOperations: DeliveryScanOperations = { fileStream, activity, sniff, notifyWithFreshTokens };
