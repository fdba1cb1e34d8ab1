// Migration 0058 on a database that already holds names stored before the one name rule (issue 28
// §1): plain rooms, folders, room files, delivery files in clear, declared form files and forms
// get their NFC form without bidi controls or zero-width characters; a name that becomes a live
// sibling's gets the "keep both" name; E2E rooms and level 3/4 files (sealed or signed names) stay
// as they were. SQLite and PostgreSQL alike.
import { randomUUID } from 'node:crypto';
import { SECURITY_LEVELS } from '@shared/contract/constants';
import { expect, it } from 'vitest';
import { insertSender, withMigrationDatabase } from './migration-helpers';

const NFD = (name: string) => name.normalize('NFD');

it('0058-stored-names brings stored names under the name rule and keeps both where they would meet', async () => {
  await withMigrationDatabase(async ({ db, migrator }) => {
    expect((await migrator.migrateTo('0056-room-key-grants')).error).toBeUndefined();
    const user = await insertSender(db);
    const trashed: { deleted_at: number | null } = { deleted_at: 5 };
    const live: { deleted_at: number | null } = { deleted_at: null };

    const room = async (name: string, encrypted = 0) => {
      const { id } = await db
        .insertInto('data_rooms')
        .values({ uuid: randomUUID(), name, encrypted, created_by: user.id, created_at: 1, updated_at: 1, ...live } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('room_access').values({ room_id: id, folder_id: null, user_id: user.id, role: 'owner', wrapped_key: null, granted_by: null, created_at: 1 } as never).execute();
      return id;
    };
    const folder = async (roomId: number, parentId: number | null, name: string, state = live) =>
      (
        await db
          .insertInto('room_folders')
          .values({ uuid: randomUUID(), room_id: roomId, parent_id: parentId, name, created_by: user.id, created_at: 1, updated_at: 1, ...state } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const file = async (roomId: number, folderId: number | null, name: string, state = live) =>
      (
        await db
          .insertInto('room_files')
          .values({ uuid: randomUUID(), room_id: roomId, folder_id: folderId, name, size: 1, mime_type: 'text/plain', part_size: 1, part_count: 1, sha256: null, blob_prefix: randomUUID(), state: 'complete', uploaded_by: user.id, created_at: 1, updated_at: 1, ...state } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;

    // Rooms: names are unique per member; the one already in NFC keeps its name.
    const nfdRoom = await room(NFD('Projét'));
    const nfcRoom = await room('Projét');
    const sealedName = `${NFD('sealé')}\u200B`;
    const e2eRoom = await room(sealedName, 1);
    // Folders and files of one parent share names.
    const folderA = await folder(nfcRoom, null, NFD('Résumé'));
    const fileA = await file(nfcRoom, null, 'Résumé');
    const bidi = await file(nfcRoom, folderA, 'a\u202Eb.txt');
    const plain = await file(nfcRoom, folderA, 'ab.txt');
    const blank = await file(nfcRoom, folderA, '\u200B');
    const inTrash = await file(nfcRoom, null, NFD('é.txt'), trashed);
    const liveTwin = await file(nfcRoom, null, 'é.txt');
    const nested = await folder(nfcRoom, folderA, NFD('Ordner ü'));
    const e2eFolder = await folder(e2eRoom, null, NFD('Ordner ü'));
    const e2eFile = await file(e2eRoom, null, NFD('é.txt'));

    // Delivery files: unique per delivery; level 3/4 files (encrypted) are skipped.
    const delivery = async (level: number) =>
      (
        await db
          .insertInto('deliveries')
          .values({ uuid: randomUUID(), sender_id: user.id, status: 'draft', subject: 's', body: '', security_level: level, language: 'en', validity_days: null, expires_at: null, review_state: 'notReviewed', manifest: null, created_at: 1, sent_at: null, deleted_at: null, purged_at: null } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const deliveryFile = async (deliveryId: number, name: string, encrypted = 0) =>
      (
        await db
          .insertInto('delivery_files')
          .values({ uuid: randomUUID(), delivery_id: deliveryId, name, size: 1, mime_type: 'application/pdf', part_size: 1, part_count: 1, status: 'committed', encrypted, header_hash: null, created_at: 1, committed_at: 1 } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const clear = await delivery(SECURITY_LEVELS.LEVEL_1);
    const nfdPdf = await deliveryFile(clear, NFD('café.pdf'));
    const nfcPdf = await deliveryFile(clear, 'café.pdf');
    const sealedPdf = await deliveryFile(await delivery(SECURITY_LEVELS.LEVEL_3), NFD('café.pdf'), 1);
    await db.insertInto('form_submission_files').values({ session_id: 's1', field_name: 'Documents', name: NFD('café.pdf'), size: 1, mime_type: 'application/pdf', created_at: 1 } as never).execute();

    // Forms: the name key is unique across all forms.
    const form = async (name: string, nameKey: string) =>
      (
        await db
          .insertInto('forms')
          .values({ uuid: randomUUID(), name, name_key: nameKey, url: randomUUID(), active: 0, security_level: 1, captcha: 0, only_authenticated: 0, mandatory_recipients: '[]', optional_recipients: '[]', sender_user_id: null, disclaimer_enabled: 0, disclaimer_text: '', layout: '{}', translations: '{}', created_by: user.id, created_at: 1, updated_at: 1 } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const hiddenForm = await form('Kontakt\u200B', 'kontakt\u200B');
    await form('Kontakt', 'kontakt');
    const nfdForm = await form(NFD('Café: Anfrage?'), NFD('café: anfrage?'));
    const lineForm = await form('Two\nlines', 'two\nlines');

    expect((await migrator.migrateTo('0058-stored-names')).error).toBeUndefined();

    const nameOf = async (table: 'data_rooms' | 'room_folders' | 'room_files' | 'delivery_files', id: number) =>
      (await db.selectFrom(table).select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
    expect(await nameOf('data_rooms', nfcRoom)).toBe('Projét');
    expect(await nameOf('data_rooms', nfdRoom)).toBe('Projét (1)');
    expect(await nameOf('room_files', fileA)).toBe('Résumé');
    expect(await nameOf('room_folders', folderA)).toBe('Résumé (1)');
    expect(await nameOf('room_files', plain)).toBe('ab.txt');
    expect(await nameOf('room_files', bidi)).toBe('ab (1).txt');
    expect(await nameOf('room_files', blank)).toBe('_');
    expect(await nameOf('room_files', liveTwin)).toBe('é.txt');
    expect(await nameOf('room_files', inTrash)).toBe('é.txt');
    expect(await nameOf('room_folders', nested)).toBe('Ordner ü');
    // Sealed names: untouched, byte for byte.
    expect(await nameOf('data_rooms', e2eRoom)).toBe(sealedName);
    expect(await nameOf('room_folders', e2eFolder)).toBe(NFD('Ordner ü'));
    expect(await nameOf('room_files', e2eFile)).toBe(NFD('é.txt'));
    expect(await nameOf('delivery_files', nfcPdf)).toBe('café.pdf');
    expect(await nameOf('delivery_files', nfdPdf)).toBe('café (1).pdf');
    expect(await nameOf('delivery_files', sealedPdf)).toBe(NFD('café.pdf'));
    expect(await db.selectFrom('form_submission_files').select('name').execute()).toEqual([{ name: 'café.pdf' }]);
    const forms = await db.selectFrom('forms').select(['id', 'name', 'name_key']).orderBy('id').execute();
    expect(forms.map(({ name, name_key }) => [name, name_key])).toEqual([
      ['Kontakt (1)', 'kontakt (1)'],
      ['Kontakt', 'kontakt'],
      ['Café: Anfrage?', 'café: anfrage?'],
      ['Twolines', 'twolines'],
    ]);
    expect(forms.map((f) => f.id)).toEqual([hiddenForm, expect.any(Number), nfdForm, lineForm]);
    // Every row is still there.
    expect(await db.selectFrom('room_files').select('id').execute()).toHaveLength(7);

    // Down keeps the stored names; up again changes nothing.
    expect((await migrator.migrateTo('0056-room-key-grants')).error).toBeUndefined();
    expect((await migrator.migrateTo('0058-stored-names')).error).toBeUndefined();
    expect(await nameOf('room_folders', folderA)).toBe('Résumé (1)');
    expect(await nameOf('data_rooms', nfdRoom)).toBe('Projét (1)');
  });
});
