/**
 * Entry of the download service worker (DESIGN §4), built by webpack's `download-sw` config to
 * /webjars/download-sw.js and registered with scope /webjars/download/. The logic lives in
 * web/lib/download-sw-logic.ts and web/lib/media-sw-logic.ts (unit-tested); this file only hands them the worker's scope.
 */
import { serveDownloadWorker, type DownloadWorkerScope } from '@web/lib/download-sw-logic';
import { serveMediaRanges, type MediaWorkerScope } from '@web/lib/media-sw-logic';

serveDownloadWorker(self as unknown as DownloadWorkerScope);
// Secure-room audio and video by range (web/lib/media-sw-logic.ts): its own listeners, its own paths.
serveMediaRanges(self as unknown as MediaWorkerScope);
