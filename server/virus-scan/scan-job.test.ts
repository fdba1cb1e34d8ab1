import { describe, expect, it } from 'vitest';
import { parseClamdAddress } from './clamd';
import { sniffProgram } from './scan-job';

describe('content sniff (MIME type check)', () => {
  it('finds Windows programs and shortcuts by their first bytes, nothing else', () => {
    expect(sniffProgram(Buffer.from('MZ\x90\x00', 'latin1'))).toEqual({ mimeType: 'application/x-msdownload', extension: 'exe' });
    expect(sniffProgram(Buffer.from([0x4c, 0, 0, 0, 1, 0x14, 2, 0, 0]))).toEqual({ mimeType: 'application/x-ms-shortcut', extension: 'lnk' });
    expect(sniffProgram(Buffer.from('%PDF-1.7'))).toBeNull();
    expect(sniffProgram(Buffer.from('M'))).toBeNull();
    expect(sniffProgram(new Uint8Array(0))).toBeNull();
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
