import { Button, Field, makeStyles, Spinner, Text, Textarea, tokens } from '@fluentui/react-components';
import { ROOM_COMMENT_MAX, type RoomComment } from '@shared/contract/room-comments';
import type { RoomRole } from '@shared/contract/rooms';
import { Alert } from '@web/components/alert';
import { useNotify } from '@web/lib/toasts';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addComment, deleteComment, editComment, useRoomComments, type CommentTarget } from './api/room-comments';
import { ConfirmDialog, type ConfirmRequest } from './room-dialogs';
import { useDateFormat } from './room-format';
import { commentMay, roomMay } from './room-may';

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '12px' },
  item: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, paddingBottom: '8px' },
  meta: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'baseline', color: tokens.colorNeutralForeground2 },
  author: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorNeutralForeground1 },
  text: { margin: '4px 0', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: '8px' },
  form: { display: 'grid', gap: '8px', marginTop: '16px' },
});

/** The typed comment's problem (the server checks the same, ROOM_COMMENT_MAX after trimming), or undefined. */
function useCommentProblem(): (text: string) => string | undefined {
  const { t } = useTranslation();
  return (text) => {
    const trimmed = text.trim();
    if (trimmed.length === 0) return t('common:validation.required');
    if (trimmed.length > ROOM_COMMENT_MAX) return t('roomComments:comments.tooLong', { maxLength: ROOM_COMMENT_MAX });
    return undefined;
  };
}

/** What a comment shows: its text, or why it cannot be shown (a crypto error code, Secure rooms). */
export type ShownComment = { text: string } | { problem: string };

/**
 * How a Secure room's comments are written and read (e2e/e2e-comments.ts): sealed and signed in the
 * browser, opened and verified there. Absent: a plain room (the text travels as typed).
 */
export interface CommentCodec {
  seal(target: CommentTarget, text: string): Promise<{ text: string; signature: string }>;
  open(target: CommentTarget, comments: RoomComment[]): Promise<Map<string, ShownComment>>;
}

/** Each comment's shown text: as listed, or opened through the codec (null while it works). */
function useShownComments(target: CommentTarget, comments: RoomComment[] | undefined, codec: CommentCodec | undefined): Map<string, ShownComment> | null {
  const [opened, setOpened] = useState<{ of: RoomComment[]; shown: Map<string, ShownComment> } | null>(null);
  // The target by value: the sidebar builds a new object on every render.
  const [kind, uuid] = 'fileUuid' in target ? (['file', target.fileUuid] as const) : (['folder', target.folderUuid] as const);
  useEffect(() => {
    if (!codec || !comments) return;
    let live = true;
    codec.open(kind === 'file' ? { fileUuid: uuid } : { folderUuid: uuid }, comments).then(
      (shown) => live && setOpened({ of: comments, shown }),
      // The room key or the signers did not load: every comment says so, none is shown unverified.
      () => live && setOpened({ of: comments, shown: new Map(comments.map((c) => [c.uuid, { problem: 'room-comment-invalid' }])) }),
    );
    return () => {
      live = false;
    };
  }, [codec, comments, kind, uuid]);
  if (!comments) return null;
  if (!codec) return new Map(comments.map((c) => [c.uuid, { text: c.text }]));
  return opened?.of === comments ? opened.shown : null;
}

/** `signature` and the sealed text of a Secure room's comment, or the typed text of a plain one. */
async function wireOf(codec: CommentCodec | undefined, target: CommentTarget, text: string): Promise<{ text: string; signature?: string }> {
  return codec ? codec.seal(target, text.trim()) : { text };
}

/**
 * The details sidebar's Comments tab (SPEC §2; issue 31 §1): the comments on a file or folder,
 * oldest first with author and time; OWNERs and EDITORs add and edit or delete their own, an OWNER
 * deletes anyone's (after a confirmation); VIEWERs and PREVIEWERs read.
 */
export function CommentsTab({ roomUuid, target, role, itemName, codec }: { roomUuid: string; target: CommentTarget; role: RoomRole; itemName: string; codec?: CommentCodec }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const problemOf = useCommentProblem();
  const comments = useRoomComments(roomUuid, target);
  const shown = useShownComments(target, comments.data?.comments, codec);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = problemOf(draft);
    setProblem(found);
    if (found) return;
    setPending(true);
    try {
      const wire = await wireOf(codec, target, draft);
      await addComment(roomUuid, target, wire.text, wire.signature);
      setDraft('');
      notify('success', t('roomComments:comments.added'));
    } catch {
      notify('error', t('roomComments:comments.addFailed'));
    } finally {
      setPending(false);
    }
  }

  const askDelete = (comment: RoomComment) =>
    setConfirming({
      title: t('roomComments:comments.deleteTitle'),
      text: t('roomComments:comments.deleteText', { name: comment.author?.name ?? t('roomComments:comments.formerUser'), item: itemName }),
      confirmLabel: t('roomComments:comments.delete'),
      run: () => deleteComment(roomUuid, comment.uuid),
      done: t('roomComments:comments.deleted'),
      failed: t('roomComments:comments.deleteFailed'),
    });

  return (
    <section aria-label={t('roomComments:comments.listLabel', { name: itemName })}>
      {comments.error ? <Alert type="error">{t('roomComments:comments.loadError')}</Alert> : null}
      {(!comments.data || !shown) && !comments.error ? <Spinner size="tiny" label={t('common:loading')} /> : null}
      {comments.data && comments.data.comments.length === 0 ? <Text as="p">{t('roomComments:comments.empty')}</Text> : null}
      {comments.data && shown && comments.data.comments.length > 0 ? (
        <ul className={styles.list}>
          {comments.data.comments.map((comment) => (
            <CommentItem
              key={comment.uuid}
              comment={comment}
              shown={shown.get(comment.uuid) ?? { problem: 'room-comment-invalid' }}
              role={role}
              onDelete={() => askDelete(comment)}
              save={async (text) => {
                const wire = await wireOf(codec, target, text);
                await editComment(roomUuid, comment.uuid, wire.text, wire.signature);
              }}
            />
          ))}
        </ul>
      ) : null}
      {roomMay(role, 'edit') ? (
        <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
          <Field label={t('roomComments:comments.newLabel')} validationMessage={problem}>
            <Textarea value={draft} onChange={(_e, data) => setDraft(data.value)} resize="vertical" />
          </Field>
          <div>
            <Button type="submit" appearance="primary" disabled={pending}>
              {t('roomComments:comments.add')}
            </Button>
          </div>
        </form>
      ) : null}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} />
    </section>
  );
}

function CommentItem(props: { comment: RoomComment; shown: ShownComment; role: RoomRole; onDelete: () => void; save: (text: string) => Promise<void> }) {
  const { comment, shown, role, onDelete } = props;
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const dateFormat = useDateFormat();
  const problemOf = useCommentProblem();
  const may = commentMay(role, comment.own);
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const author = comment.author?.name ?? t('roomComments:comments.formerUser');

  async function save(event: FormEvent) {
    event.preventDefault();
    if (editing === null) return;
    const found = problemOf(editing);
    setProblem(found);
    if (found) return;
    try {
      await props.save(editing);
      setEditing(null);
      notify('success', t('roomComments:comments.edited'));
    } catch {
      notify('error', t('roomComments:comments.editFailed'));
    }
  }

  return (
    <li className={styles.item}>
      <div className={styles.meta}>
        <span className={styles.author}>{author}</span>
        <time dateTime={new Date(comment.createdAt).toISOString()}>{dateFormat.format(comment.createdAt)}</time>
        {comment.updatedAt !== comment.createdAt ? <span>{t('roomComments:comments.editedMark')}</span> : null}
      </div>
      {editing === null ? (
        'text' in shown ? (
          <p className={styles.text}>{shown.text}</p>
        ) : (
          // A Secure room's comment that does not open or verify: said, never shown as if it did.
          <Alert type="warning">
            {t('roomComments:comments.unverified')} {t(`rooms:e2e.problems.${shown.problem}`, { defaultValue: t('rooms:e2e.problems.unknown') })}
          </Alert>
        )
      ) : (
        <form onSubmit={(event) => void save(event)} noValidate>
          <Field label={t('roomComments:comments.editLabel')} validationMessage={problem}>
            <Textarea value={editing} onChange={(_e, data) => setEditing(data.value)} resize="vertical" />
          </Field>
          <div className={styles.actions}>
            <Button type="submit" size="small" appearance="primary">
              {t('roomComments:comments.save')}
            </Button>
            <Button size="small" onClick={() => setEditing(null)}>
              {t('common:actions.cancel')}
            </Button>
          </div>
        </form>
      )}
      {editing === null && (may.edit || may.delete) ? (
        <div className={styles.actions}>
          {may.edit && 'text' in shown ? (
            <Button size="small" onClick={() => setEditing(shown.text)} aria-label={t('roomComments:comments.editOf', { name: author })}>
              {t('roomComments:comments.edit')}
            </Button>
          ) : null}
          {may.delete ? (
            <Button size="small" onClick={onDelete} aria-label={t('roomComments:comments.deleteOf', { name: author })}>
              {t('roomComments:comments.delete')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
