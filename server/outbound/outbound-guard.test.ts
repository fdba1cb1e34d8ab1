import { lookup } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { addressPermitted, addressRange, checkOutboundUrl, isAllowEntry, outboundErrorText, OutboundRefusedError, pinnedLookup, type OutboundPolicy } from './outbound-guard';

const strict: OutboundPolicy = { allow: [], allowHttp: false };
const withHttp: OutboundPolicy = { allow: [], allowHttp: true };

async function refusal(url: string, policy: OutboundPolicy): Promise<OutboundRefusedError> {
  const error = await checkOutboundUrl(url, policy).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(OutboundRefusedError);
  return error as OutboundRefusedError;
}

describe('address classifier', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    // Odd IPv4 spellings and IPv4-mapped IPv6 are the IPv4 address they mean.
    ['0x7f000001', 'loopback'],
    ['2130706433', 'loopback'],
    ['127.1', 'loopback'],
    ['017700000001', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['[::1]', 'loopback'],
    ['93.184.215.14', 'unicast'],
    ['2606:4700::1111', 'unicast'],
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(addressPermitted(address, strict)).toBe(range === 'unicast');
  });

  it('embedded-IPv4 forms that are not plain IPv4-mapped are refused too (NAT64, 6to4, Teredo, SIIT)', () => {
    for (const address of ['64:ff9b::7f00:1', '2002:7f00:1::1', '2001:0:7f00:1::1', '::ffff:0:7f00:1']) expect(addressPermitted(address, strict), address).toBe(false);
  });

  it('the allow-list admits addresses and ranges; a range never admits a metadata address, the exact entry does', () => {
    const policy: OutboundPolicy = { allow: ['10.20.0.0/16', '127.0.0.1', 'fd00::/8', '169.254.0.0/16'], allowHttp: false };
    expect(addressPermitted('10.20.3.4', policy)).toBe(true);
    expect(addressPermitted('10.21.3.4', policy)).toBe(false);
    expect(addressPermitted('127.0.0.1', policy)).toBe(true);
    expect(addressPermitted('::ffff:127.0.0.1', policy)).toBe(true);
    expect(addressPermitted('127.0.0.2', policy)).toBe(false);
    expect(addressPermitted('fd00::5', policy)).toBe(true);
    expect(addressPermitted('169.254.3.3', policy)).toBe(true);
    expect(addressPermitted('169.254.169.254', policy)).toBe(false);
    expect(addressPermitted('fd00:ec2::254', policy)).toBe(false);
    expect(addressPermitted('169.254.169.254', { ...policy, allow: ['169.254.169.254'] })).toBe(true);
    // An IPv4-mapped range is the IPv4 range it maps, metadata rule included.
    expect(addressPermitted('10.9.8.7', { ...policy, allow: ['::ffff:10.0.0.0/104'] })).toBe(true);
    expect(addressPermitted('11.9.8.7', { ...policy, allow: ['::ffff:10.0.0.0/104'] })).toBe(true); // public anyway
    expect(addressPermitted('172.16.0.1', { ...policy, allow: ['::ffff:10.0.0.0/104'] })).toBe(false);
    expect(addressPermitted('169.254.169.254', { ...policy, allow: ['::ffff:169.254.0.0/112'] })).toBe(false);
  });

  it('allow-list entries: addresses, CIDR ranges and host names; nothing else', () => {
    for (const entry of ['127.0.0.1', '::1', '[::1]', '10.0.0.0/8', 'fd00::/8', 'hooks.intranet.example', 'localhost', 'Localhost.']) expect(isAllowEntry(entry), entry).toBe(true);
    for (const entry of ['*.example', 'http://x', '10.0.0.0/33', 'a b', '', 'under_score.example']) expect(isAllowEntry(entry), entry).toBe(false);
  });
});

describe('checkOutboundUrl', () => {
  it('refuses every internal address spelling at the URL, with the reason the save answers', async () => {
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://127.0.0.1:8443/',
      'https://[::1]/',
      'https://0x7f000001/',
      'https://2130706433/',
      'https://127.1/',
      'https://[::ffff:127.0.0.1]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://0.0.0.0/',
      'https://224.0.0.1/',
      'https://localhost/',
      'https://LOCALHOST./',
    ]) {
      const error = await refusal(url, strict);
      expect(error.reason, url).toBe('blockedAddress');
      // The range is named, never the address it resolved to.
      expect(error.message, url).not.toMatch(/127\.0\.0\.1|::1|10\.0\.0\.1/);
    }
  });

  it('http only when allowed; only http(s); no credentials; an unknown name is unresolvable', async () => {
    expect((await refusal('http://93.184.215.14/hook', strict)).reason).toBe('httpNotAllowed');
    await expect(checkOutboundUrl('http://93.184.215.14/hook', withHttp)).resolves.toMatchObject({ address: '93.184.215.14', family: 4 });
    await expect(checkOutboundUrl('https://93.184.215.14/hook', strict)).resolves.toMatchObject({ address: '93.184.215.14' });
    expect((await refusal('ftp://93.184.215.14/', withHttp)).reason).toBe('invalidUrl');
    expect((await refusal('javascript:alert(1)', withHttp)).reason).toBe('invalidUrl');
    expect((await refusal('not a url', withHttp)).reason).toBe('invalidUrl');
    expect((await refusal('https://user:pw@93.184.215.14/', strict)).reason).toBe('credentialsInUrl');
    expect((await refusal('https://no-such-host.invalid/', strict)).reason).toBe('unresolvable');
  });

  it('the deadline covers the name lookup: an aborted check ends with the abort, not as unresolvable', async () => {
    const error = await checkOutboundUrl('https://localhost/hook', strict, AbortSignal.abort(new DOMException('late', 'TimeoutError'))).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(OutboundRefusedError);
    expect(outboundErrorText(error)).toBe('No answer in time');
  });

  it('the allow-list: a loopback address or the name localhost admits the loopback receiver', async () => {
    await expect(checkOutboundUrl('http://127.0.0.1:9/hook', { allow: ['127.0.0.1'], allowHttp: true })).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkOutboundUrl('https://localhost/hook', { allow: ['localhost'], allowHttp: false })).resolves.toMatchObject({ family: expect.any(Number) as unknown });
    // Another internal address stays refused.
    expect((await refusal('https://10.0.0.1/', { allow: ['127.0.0.1', 'localhost'], allowHttp: false })).reason).toBe('blockedAddress');
  });
});

describe('pinned connection and safe errors', () => {
  it('the socket lookup answers the checked address whatever name it is asked for', async () => {
    const pinned = pinnedLookup({ address: '93.184.215.14', family: 4 });
    const one = await new Promise<unknown>((resolve) => pinned('evil.example', { family: 0 }, (_e, address, family) => resolve([address, family])));
    expect(one).toEqual(['93.184.215.14', 4]);
    const all = await new Promise<unknown>((resolve) => pinned('localhost', { all: true }, (_e, address) => resolve(address)));
    expect(all).toEqual([{ address: '93.184.215.14', family: 4 }]);
    // The system lookup would have answered loopback for that name.
    const system = await new Promise<string>((resolve) => lookup('localhost', { family: 4 }, (_e, address) => resolve(address)));
    expect(system).toBe('127.0.0.1');
  });

  it('network errors become fixed words without address or port', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:8080'), { code: 'ECONNREFUSED' });
    expect(outboundErrorText(refused)).toBe('The connection was refused');
    expect(outboundErrorText(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe('No answer in time');
    expect(outboundErrorText(Object.assign(new Error('self-signed 10.1.2.3'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }))).toBe('The TLS certificate was not accepted');
    expect(outboundErrorText(new Error('getaddrinfo something 10.1.2.3'))).toBe('The connection failed');
    expect(outboundErrorText(new OutboundRefusedError('blockedAddress', 'internal (loopback)'))).toBe('Refused before connecting: internal (loopback)');
  });
});
