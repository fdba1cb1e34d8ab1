import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  makeStyles,
  OverlayDrawer,
  Select,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { RoomActivityEntry } from '@shared/contract/room-files';
import { ROOM_PERMISSIONS, ROOM_ROLES, type Room, type RoomAccessEntry, type RoomFile, type RoomFolder, type RoomRole } from '@shared/contract/rooms';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useAuthState } from '@web/lib/auth';
import { formatSize } from '@web/lib/format-size';
import { useState, type ReactNode } from 'react';
import { PersonName } from './person-name';
import { useTranslation } from 'react-i18next';
import { AccessFlags } from './access-flags';
import { refreshRooms, setRoomAccess, useRoomAccess } from './api/rooms';
import { ConfirmDialog, type ConfirmRequest } from './room-dialogs';
import { RoomActivity } from './room-activity';
import { CommentsTab, type CommentCodec } from './room-comments';
import { RoleBadge, useDateFormat } from './room-format';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** The item whose details show: the room itself, a folder or a file. */
export type DetailsItem = { kind: 'room'; room: Room } | { kind: 'folder'; room: Room; folder: RoomFolder } | { kind: 'file'; room: Room; file: RoomFile };

type TabValue = 'access' | 'comments' | 'activity' | 'details';

/**
 * What the sidebar shows instead of the server's strings (an E2E room: the decrypted name, the
 * plaintext size — the server knows the ciphertext's — and the activity's sealed names opened).
 */
export interface DetailsNames {
  name: string;
  size?: number;
  /** A file's type from its signed metadata (absent: none given). */
  mimeType?: string;
  /** An E2E file's version number and date (ISO 8601) from its signed metadata, shown instead of the server's. */
  signed?: { version: number; createdAt: string };
  itemCell?: (entry: RoomActivityEntry) => ReactNode;
  /** A Secure room's comments: sealed and signed in the browser (e2e/e2e-comments.ts). */
  comments?: CommentCodec;
}

const useStyles = makeStyles({
  body: { display: 'grid', gap: '12px', alignContent: 'start' },
  facts: { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '6px 16px', margin: 0 },
  term: { fontWeight: tokens.fontWeightSemibold },
  value: { margin: 0, overflowWrap: 'anywhere' },
});

const nameOf = (item: DetailsItem) => (item.kind === 'room' ? item.room.name : item.kind === 'folder' ? item.folder.name : item.file.name);
const roleOf = (item: DetailsItem): RoomRole => (item.kind === 'room' ? item.room.role : item.kind === 'folder' ? item.folder.role : item.file.role);
/** Roles are set on the room or a folder; a file's are those of its folder. */
const accessFolderOf = (item: DetailsItem): string | undefined =>
  item.kind === 'folder' ? item.folder.uuid : item.kind === 'file' ? (item.file.folderUuid ?? undefined) : undefined;
const personName = (entry: RoomAccessEntry) => entry.user.name || entry.user.username || entry.user.email;

/**
 * The details sidebar of a room, folder or file (SPEC §2): Access — who has which role, OWNERs
 * change or revoke after a confirmation naming item, role and person; Comments (files and folders;
 * Secure rooms' sealed in the browser, room-comments.tsx); Activity (OWNERs) — the existing activity list of the item; Details — size,
 * type, dates, creator/uploader, owners, encryption.
 */
export function DetailsPanel({ item, onClose, names }: { item: DetailsItem | null; onClose: () => void; names?: DetailsNames }) {
  const { t } = useTranslation();
  return (
    <OverlayDrawer open={item !== null} position="end" size="medium" onOpenChange={(_e, data) => (data.open ? undefined : onClose())} aria-label={item ? t('rooms:details.title', { name: names?.name ?? nameOf(item) }) : undefined}>
      {item ? <DetailsContent key={`${item.kind}:${nameOf(item)}`} item={item} onClose={onClose} names={names} /> : null}
    </OverlayDrawer>
  );
}

function DetailsContent({ item, onClose, names }: { item: DetailsItem; onClose: () => void; names: DetailsNames | undefined }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [tab, setTab] = useState<TabValue>('details');
  const owner = ROOM_PERMISSIONS[roleOf(item)].manageAccess;
  const access = useRoomAccess(item.room.uuid, accessFolderOf(item), owner);
  // Comments are on files and folders; a Secure room's only with the codec that seals them in the browser.
  const commentTarget = item.room.encrypted && !names?.comments ? null : item.kind === 'file' ? { fileUuid: item.file.uuid } : item.kind === 'folder' ? { folderUuid: item.folder.uuid } : null;
  return (
    <>
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label={t('rooms:details.close')} icon={<DismissRegular />} onClick={onClose} />}>
          {t('rooms:details.title', { name: names?.name ?? nameOf(item) })}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody className={styles.body}>
        <TabList selectedValue={tab} onTabSelect={(_e, data) => {
            if (data.value === 'activity') track(ANALYTICS_ACTIONS.activityTabViewed);
            setTab(data.value as TabValue);
          }} aria-label={t('rooms:details.tabs')}>
          <Tab value="access">{t('rooms:details.access')}</Tab>
          {commentTarget ? <Tab value="comments">{t('roomComments:comments.tab')}</Tab> : null}
          {ROOM_PERMISSIONS[roleOf(item)].activity ? <Tab value="activity">{t('rooms:details.activity')}</Tab> : null}
          <Tab value="details">{t('rooms:details.details')}</Tab>
        </TabList>
        <div role="tabpanel" aria-label={tab === 'comments' ? t('roomComments:comments.tab') : t(`rooms:details.${tab}`)}>
          {tab === 'access' ? <AccessTab item={item} itemName={names?.name ?? nameOf(item)} entries={access.data?.entries} loading={access.isLoading} failed={access.error !== undefined} owner={owner} /> : null}
          {tab === 'comments' && commentTarget ? <CommentsTab roomUuid={item.room.uuid} target={commentTarget} role={roleOf(item)} itemName={names?.name ?? nameOf(item)} {...(names?.comments ? { codec: names.comments } : {})} /> : null}
          {tab === 'activity' ? (
            <RoomActivity
              roomUuid={item.room.uuid}
              folderUuid={item.kind === 'folder' ? item.folder.uuid : null}
              fileUuid={item.kind === 'file' ? item.file.uuid : null}
              expanded
              {...(names?.itemCell ? { itemCell: names.itemCell } : {})}
            />
          ) : null}
          {tab === 'details' ? <FactsTab item={item} size={names?.size} mimeType={names ? (names.mimeType ?? '') : undefined} signed={names?.signed} owners={owner ? access.data?.entries.filter((e) => e.role === 'OWNER').map(personName) : undefined} /> : null}
        </div>
      </DrawerBody>
    </>
  );
}

function AccessTab({ item, itemName, entries, loading, failed, owner }: { item: DetailsItem; itemName: string; entries: RoomAccessEntry[] | undefined; loading: boolean; failed: boolean; owner: boolean }) {
  const { t } = useTranslation();
  const me = useAuthState().user;
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);
  const folderUuid = item.kind === 'room' ? undefined : accessFolderOf(item);
  // Changing a role set above this item sets one here instead (inheritance, SPEC §6).
  const ask = (entry: RoomAccessEntry, next: RoomRole | null) => {
    const values = { item: itemName, user: personName(entry), role: next ? t(`rooms:roles.${next}`) : t(`rooms:roles.${entry.role}`) };
    const own = entry.user.uuid === me?.uuid;
    setConfirming({
      title: next ? t('rooms:details.changeTitle', values) : t('rooms:details.revokeTitle', values),
      text: `${next ? t('rooms:details.changeText', values) : t('rooms:details.revokeText', values)}${own ? ` ${t('rooms:details.ownWarning')}` : ''}`,
      confirmLabel: next ? t('rooms:details.changeConfirm') : t('rooms:details.revokeConfirm'),
      run: async () => {
        await setRoomAccess(item.room.uuid, { user: entry.user.email, role: next, ...(folderUuid ? { folderUuid } : {}), ...(own ? { confirmOwnChange: true } : {}) });
        await refreshRooms();
      },
      done: next ? t('rooms:share.changed', values) : t('rooms:share.revoked', values),
      failed: next ? t('rooms:share.changeFailed', values) : t('rooms:share.revokeFailed', values),
    });
  };
  if (!owner) {
    return (
      <Text as="p">
        {t('rooms:details.yourRole')} <RoleBadge role={roleOf(item)} /> {t('rooms:details.accessOwnersOnly')}
      </Text>
    );
  }
  const columns: DataTableColumn<RoomAccessEntry>[] = [
    {
      id: 'person',
      header: t('rooms:share.columns.person'),
      cell: (entry) => (
        <>
          {`${personName(entry)}${entry.user.uuid === me?.uuid ? ` ${t('rooms:share.you')}` : ''}`}
          <AccessFlags entry={entry} />
        </>
      ),
    },
    {
      id: 'role',
      header: t('rooms:share.columns.role'),
      cell: (entry) => (
        <Select size="small" aria-label={t('rooms:share.roleOf', { name: personName(entry) })} value={entry.role} onChange={(_e, data) => ask(entry, data.value as RoomRole)}>
          {ROOM_ROLES.map((value) => (
            <option key={value} value={value}>
              {t(`rooms:roles.${value}`)}
            </option>
          ))}
        </Select>
      ),
    },
    {
      id: 'remove',
      header: t('rooms:share.columns.remove'),
      cell: (entry) =>
        entry.inherited ? (
          t(entry.setOn ? 'rooms:share.inheritedFolder' : 'rooms:share.inheritedRoom')
        ) : (
          <Button size="small" onClick={() => ask(entry, null)} aria-label={t('rooms:share.removeFor', { name: personName(entry) })}>
            {t('rooms:share.remove')}
          </Button>
        ),
    },
  ];
  return (
    <>
      {failed ? <Alert type="error">{t('rooms:details.accessLoadError')}</Alert> : null}
      <DataTable
        label={t('rooms:share.tableLabel', { name: itemName })}
        columns={columns}
        rows={entries}
        rowKey={(entry) => `${entry.user.uuid}:${entry.setOn ?? 'room'}`}
        loading={loading}
        size="small"
        empty={<Text as="p">{t('rooms:share.empty')}</Text>}
      />
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} />
    </>
  );
}

function FactsTab({ item, size, mimeType, signed, owners }: { item: DetailsItem; size: number | undefined; mimeType: string | undefined; signed?: DetailsNames['signed']; owners: string[] | undefined }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const none = t('rooms:details.none');
  const facts: [string, ReactNode][] = [];
  // Issue 32: the person's name, the address on a second line; nobody known: "none".
  const person = (email: string, name?: string | null) => (email ? <PersonName email={email} name={name} /> : none);
  if (item.kind === 'file') {
    facts.push([t('rooms:details.size'), formatSize(size ?? item.file.size, i18n.language)]);
    facts.push([t('rooms:details.type'), (mimeType ?? item.file.mimeType) || none]);
    facts.push([t('rooms:details.created'), dateFormat.format(item.file.createdAt)]);
    if (signed) facts.push([t('rooms:versions.columns.version'), String(signed.version)]);
    facts.push([t('rooms:details.modified'), dateFormat.format(signed ? new Date(signed.createdAt) : item.file.updatedAt)]);
    facts.push([t('rooms:details.uploadedBy'), person(item.file.uploadedBy, item.file.uploadedByName)]);
  } else if (item.kind === 'folder') {
    facts.push([t('rooms:details.type'), t('rooms:details.typeFolder')]);
    facts.push([t('rooms:details.created'), dateFormat.format(item.folder.createdAt)]);
    facts.push([t('rooms:details.createdBy'), person(item.folder.createdBy, item.folder.createdByName)]);
  } else {
    facts.push([t('rooms:details.type'), t('rooms:details.typeRoom')]);
    facts.push([t('rooms:details.created'), dateFormat.format(item.room.createdAt)]);
    facts.push([t('rooms:details.modified'), dateFormat.format(item.room.updatedAt)]);
    facts.push([t('rooms:details.createdBy'), person(item.room.createdBy, item.room.createdByName)]);
  }
  facts.push([t('rooms:details.owners'), owners === undefined ? t('rooms:details.ownersHidden') : owners.length > 0 ? owners.join(', ') : none]);
  facts.push([t('rooms:details.encryption'), item.room.encrypted ? t('rooms:details.encrypted') : t('rooms:details.notEncrypted')]);
  facts.push([t('rooms:details.yourRole'), t(`rooms:roles.${roleOf(item)}`)]);
  return (
    <dl className={styles.facts}>
      {facts.map(([term, value]) => (
        <div key={term} style={{ display: 'contents' }}>
          <dt className={styles.term}>{term}</dt>
          <dd className={styles.value}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

