// What the virus-scan job (virus-scan/scan-job.ts) does with a delivery: read its files, log, mail
// the recipients after a clean scan. app.ts hands it to the job, so virus-scan/ never imports deliveries/.
import type { DeliveryScanOperations } from '../virus-scan/scan-job';
import { fileStream } from './downloads';
import { activity } from './records';
import { notifyWithFreshTokens } from './sending';

export const deliveryScanOperations: DeliveryScanOperations = { fileStream, activity, notifyWithFreshTokens };
