import { describe, expect, it } from 'vitest';
import { parseClamdAddress } from './clamd';

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
