import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMailId, listMailboxMessages, readMailboxEntry, readMailboxRaw, writeMailboxMessage } from './mailbox-folder';

describe('mailbox folder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kuvert-mailbox-unit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes .eml and .json, lists newest first, leaves no temp files', async () => {
    const folder = join(dir, 'mailbox');
    const raw = new TextEncoder().encode('Subject: x\n\nbody\n');
    const first = await writeMailboxMessage(folder, { to: 'a@x.test', subject: 'first', text: 't1' }, raw);
    const second = await writeMailboxMessage(folder, { to: 'b@x.test', subject: 'second', text: 't2' }, raw);
    expect(isMailId(first.id)).toBe(true);
    expect((await listMailboxMessages(folder)).map((e) => e.subject)).toEqual(['second', 'first']);
    expect((await readdir(folder)).sort()).toEqual([`${first.id}.eml`, `${first.id}.json`, `${second.id}.eml`, `${second.id}.json`].sort());
    expect(new TextDecoder().decode((await readMailboxRaw(folder, first.id))!)).toContain('body');
    expect((await readMailboxEntry(folder, second.id))?.to).toBe('b@x.test');
  });

  it('refuses ids it did not make (no path traversal) and treats a missing folder as empty', async () => {
    expect(isMailId('../../etc/passwd')).toBe(false);
    expect(await readMailboxRaw(dir, '../x')).toBeNull();
    expect(await readMailboxEntry(dir, '1700000000000-00000000-0000-0000-0000-000000000000')).toBeNull();
    expect(await listMailboxMessages(join(dir, 'missing'))).toEqual([]);
  });
});
