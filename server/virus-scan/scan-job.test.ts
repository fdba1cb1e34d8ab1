import { describe, expect, it } from 'vitest';
import { parseClamdAddress } from './clamd';
import { LNK_HEADER } from '../uploads/content-type.test-helper';
import { sniffProgram } from './scan-job';

describe('content sniff (MIME type check)', () => {
  it('names the type of the first bytes with file-type: Windows programs and shortcuts among them', async () => {
    expect(await sniffProgram(Buffer.from('MZ\x90\x00', 'latin1'))).toEqual({ mimeType: 'application/x-msdownload', extension: 'exe' });
    expect(await sniffProgram(LNK_HEADER)).toEqual({ mimeType: 'application/x-ms-shortcut', extension: 'lnk' });
    expect(await sniffProgram(Buffer.from('%PDF-1.7\n'))).toEqual({ mimeType: 'application/pdf', extension: 'pdf' });
    expect(await sniffProgram(Buffer.from('M'))).toBeNull();
    expect(await sniffProgram(new Uint8Array(0))).toBeNull();
  });
});

describe('clamd address', () => {
  it('tcp://host:port or a socket path', () => {
    expect(parseClamdAddress('tcp://127.0.0.1:3310')).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 3310 });
    expect(parseClamdAddress('/run/clamav/clamd.ctl')).toEqual({ kind: 'unix', path: '/run/clamav/clamd.ctl' });
    expect(parseClamdAddress('tcp://clamd.internal:3310/')).toEqual({ kind: 'tcp', host: 'clamd.internal', port: 3310 });
  });
  it('anything else is no address', () => {
    for (const bad of ['clamd:3310', 'tcp://clamd', 'tcp://a:b', 'http://clamd:3310', 'run/clamd.ctl', 'unix:///run/clamd.ctl']) expect(parseClamdAddress(bad)).toBeNull();
  });
});
