import { describe, expect, it, vi } from 'vitest';
import { FOLLOW_FIRST_MS, PROGRESS_PUBLISH_MS, followScanningItems, overallProgress, transferStore, type TransferOutcome, type TransferRunContext } from './transfer-store';

/** A job whose runs the test finishes by hand; each run sees its own signal and attempt. */
function controllableJob(title: string) {
  const runs: { context: TransferRunContext; finish: (outcome: TransferOutcome) => void }[] = [];
  const job = {
    kind: 'upload' as const,
    title,
    items: [{ name: 'a.bin', state: 'pending' as const, bytesDone: 0, totalBytes: 10 }],
    run: (context: TransferRunContext) =>
      new Promise<TransferOutcome>((resolve) => {
        runs.push({ context, finish: resolve });
        // A cancel ends the run as the engine does: an outcome, never a throw.
        context.signal.addEventListener('abort', () => resolve({ ok: false, cancelled: true }));
      }),
  };
  return { job, runs };
}

describe('transferStore', () => {
  it('runs a job, reports progress, ends in success with its result', async () => {
    const { job, runs } = controllableJob('one');
    const { id, done } = transferStore.start(job);
    expect(transferStore.get(id)?.state).toBe('running');
    expect(transferStore.hasActive()).toBe(true);
    runs[0]!.context.report({ percent: 40, items: [{ name: 'a.bin', state: 'uploading', bytesDone: 4, totalBytes: 10 }] });
    expect(transferStore.get(id)).toMatchObject({ percent: 40, items: [{ state: 'uploading', bytesDone: 4 }] });
    runs[0]!.finish({ ok: true, result: 'sent' });
    expect(await done).toEqual({ ok: true, result: 'sent' });
    expect(transferStore.get(id)).toMatchObject({ state: 'success', percent: 100, result: 'sent', runs: 1 });
    transferStore.dismiss(id);
    expect(transferStore.get(id)).toBeUndefined();
  });

  it('publishes progress at most every PROGRESS_PUBLISH_MS (newest wins), a state change and the end at once', async () => {
    vi.useFakeTimers();
    try {
      const { job, runs } = controllableJob('coalesced');
      const { id, done } = transferStore.start(job);
      let publishes = 0;
      const unsubscribe = transferStore.subscribe(() => publishes++);
      const at = (bytesDone: number, state: 'uploading' | 'decrypting' = 'uploading') =>
        runs[0]!.context.report({ percent: bytesDone * 10, items: [{ name: 'a.bin', state, bytesDone, totalBytes: 10 }] });
      at(1); // a state change (pending → uploading): at once
      expect(transferStore.get(id)?.percent).toBe(10);
      at(2);
      at(3);
      at(4);
      expect(publishes).toBe(1);
      expect(transferStore.get(id)?.percent).toBe(10);
      vi.advanceTimersByTime(PROGRESS_PUBLISH_MS);
      expect(publishes).toBe(2);
      expect(transferStore.get(id)?.percent).toBe(40);
      at(5);
      at(6, 'decrypting'); // a state change overtakes the waiting progress
      expect(transferStore.get(id)).toMatchObject({ percent: 60, items: [{ state: 'decrypting' }] });
      at(7);
      runs[0]!.finish({ ok: true });
      await done;
      vi.advanceTimersByTime(PROGRESS_PUBLISH_MS);
      // The waiting 70 % never overwrites the end.
      expect(transferStore.get(id)).toMatchObject({ state: 'success', percent: 100 });
      unsubscribe();
      transferStore.dismiss(id);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancel aborts the run; retry runs it again as the next attempt; a stale run cannot overwrite the new one', async () => {
    const { job, runs } = controllableJob('two');
    const { id, done } = transferStore.start(job);
    transferStore.cancel(id);
    expect(await done).toEqual({ ok: false, cancelled: true });
    expect(transferStore.get(id)?.state).toBe('cancelled');
    // Not removable while running, removable now — but retry first.
    const retried = transferStore.retry(id);
    expect(retried).toBeDefined();
    expect(runs[1]!.context.attempt).toBe(1);
    expect(transferStore.get(id)?.state).toBe('running');
    transferStore.dismiss(id);
    expect(transferStore.get(id)?.state).toBe('running');
    expect(transferStore.retry(id)).toBeUndefined();
    runs[0]!.context.report({ percent: 99, items: [] });
    expect(transferStore.get(id)?.percent).toBe(0);
    runs[1]!.finish({ ok: false, cancelled: false, failure: { key: 'send:errors.network' } });
    await retried;
    expect(transferStore.get(id)).toMatchObject({ state: 'failed', failure: { key: 'send:errors.network' }, runs: 2 });
    transferStore.clearFinished();
    expect(transferStore.get(id)).toBeUndefined();
    expect(transferStore.hasActive()).toBe(false);
  });

  it('pause aborts the upload as paused (kept, still active); resume runs the next attempt; done waits for a real end', async () => {
    const { job, runs } = controllableJob('paused');
    const { id, done } = transferStore.start(job);
    let settled = false;
    void done.then(() => (settled = true));
    transferStore.pause(id);
    await vi.waitFor(() => expect(transferStore.get(id)?.state).toBe('paused'));
    expect(transferStore.hasActive()).toBe(true);
    transferStore.clearFinished();
    expect(transferStore.get(id)?.state).toBe('paused');
    // Paused is not an end: the first run's promise does not settle, and retry is not the way back.
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(transferStore.retry(id)).toBeUndefined();
    const resumed = transferStore.resume(id);
    expect(runs[1]!.context.attempt).toBe(1);
    expect(transferStore.get(id)?.state).toBe('running');
    runs[1]!.finish({ ok: true, result: 'sent' });
    await resumed;
    expect(await done).toEqual({ ok: true, result: 'sent' });
    expect(transferStore.get(id)).toMatchObject({ state: 'success', runs: 2 });
    transferStore.dismiss(id);
  });

  it('a paused transfer can be cancelled; a download is never paused', async () => {
    const { job } = controllableJob('paused then cancelled');
    const { id, done } = transferStore.start(job);
    transferStore.pause(id);
    await vi.waitFor(() => expect(transferStore.get(id)?.state).toBe('paused'));
    transferStore.cancel(id);
    expect(await done).toEqual({ ok: false, cancelled: true });
    expect(transferStore.get(id)?.state).toBe('cancelled');
    transferStore.dismiss(id);

    const download = controllableJob('download');
    const started = transferStore.start({ ...download.job, kind: 'download' });
    transferStore.pause(started.id);
    expect(transferStore.get(started.id)?.state).toBe('running');
    download.runs[0]!.finish({ ok: true });
    await started.done;
    transferStore.dismiss(started.id);
  });

  it('a job that throws ends as failed, not stuck running', async () => {
    const { id, done } = transferStore.start({ kind: 'upload', title: 'x', items: [], run: () => Promise.reject(new Error('bug')) });
    expect(await done).toEqual({ ok: false, cancelled: false });
    expect(transferStore.get(id)?.state).toBe('failed');
    transferStore.dismiss(id);
  });

  it('a finished upload follows the scan: its items change once the server decided, and the asking stops then', async () => {
    vi.useFakeTimers();
    try {
      const { job, runs } = controllableJob('scanned');
      const { id, done } = transferStore.start(job);
      runs[0]!.context.report({ percent: 100, items: [{ name: 'a.bin', state: 'scanning', bytesDone: 10, totalBytes: 10 }] });
      runs[0]!.finish({ ok: true });
      await done;
      const answers: ('scanning' | 'success')[] = ['scanning', 'success'];
      const look = vi.fn(async () => {
        const state = answers.shift();
        if (!state) throw new Error('asked after the scan decided');
        return [{ name: 'a.bin', state, bytesDone: 10, totalBytes: 10 }];
      });
      followScanningItems(id, look);
      await vi.advanceTimersByTimeAsync(FOLLOW_FIRST_MS);
      expect(look).toHaveBeenCalledTimes(1);
      expect(transferStore.get(id)?.items[0]?.state).toBe('scanning');
      await vi.advanceTimersByTimeAsync(FOLLOW_FIRST_MS * 2);
      expect(look).toHaveBeenCalledTimes(2);
      expect(transferStore.get(id)).toMatchObject({ state: 'success', items: [{ state: 'success' }] });
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(look).toHaveBeenCalledTimes(2);
      transferStore.dismiss(id);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a dismissed transfer is not followed any more', async () => {
    vi.useFakeTimers();
    try {
      const { job, runs } = controllableJob('dismissed');
      const { id, done } = transferStore.start(job);
      runs[0]!.finish({ ok: true });
      await done;
      const look = vi.fn(async () => [{ name: 'a.bin', state: 'scanning' as const, bytesDone: 10, totalBytes: 10 }]);
      followScanningItems(id, look);
      transferStore.dismiss(id);
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(look).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('overall progress weighs each transfer by its size', () => {
    const base = { kind: 'upload' as const, title: '', state: 'running' as const, runs: 1, id: 'x' };
    const small = { ...base, percent: 100, items: [{ name: 's', state: 'success' as const, bytesDone: 10, totalBytes: 10 }] };
    const large = { ...base, percent: 0, items: [{ name: 'l', state: 'pending' as const, bytesDone: 0, totalBytes: 90 }] };
    expect(overallProgress([small, large])).toEqual({ bytesDone: 10, totalBytes: 100, percent: 10 });
    // A message-only send (no bytes) counts by its own percent.
    expect(overallProgress([{ ...base, percent: 50, items: [] }]).percent).toBe(50);
    expect(overallProgress([]).percent).toBe(0);
  });
});
