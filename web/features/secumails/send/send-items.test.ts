import type { DeliveryFile } from '@shared/contract/deliveries';
import type { FileProgress } from '@shared/transfer';
import { describe, expect, it } from 'vitest';
import { sentItems } from './send-items';

const progress = (name: string): FileProgress => ({ name, state: 'success', bytesSent: 3, totalBytes: 3 });
const onServer = (name: string, scanState: DeliveryFile['scanState']): DeliveryFile => ({ fileId: name, name, size: 3, mimeType: 'text/plain', status: 'committed', encrypted: false, scanState });

describe('sentItems (SPEC §4 upload states after the send)', () => {
  it('shows "scanning" while the server scans, "encrypted" for levels 3/4, else done', () => {
    const files = [progress('a.txt'), progress('b.txt')];
    const delivery = { files: [onServer('a.txt', 'scanning'), onServer('b.txt', 'clean')] };
    expect(sentItems(files, delivery, false).map((i) => i.state)).toEqual(['scanning', 'success']);
    expect(sentItems(files, { files: [onServer('a.txt', 'notScanned'), onServer('b.txt', 'notScanned')] }, true).map((i) => i.state)).toEqual(['encrypted', 'encrypted']);
    expect(sentItems(files, delivery, false)[0]).toMatchObject({ name: 'a.txt', bytesDone: 3, totalBytes: 3 });
  });
});
