/**
 * Entry of the download service worker (DESIGN §4), built by webpack's `download-sw` config to
 * /webjars/download-sw.js and registered with scope /webjars/download/. The logic lives in
 * web/lib/download-sw-logic.ts (unit-tested); this file only hands it the worker's scope.
 */
import { serveDownloadWorker, type DownloadWorkerScope } from '@web/lib/download-sw-logic';

serveDownloadWorker(self as unknown as DownloadWorkerScope);
