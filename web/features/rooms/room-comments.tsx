import { Button, Field, makeStyles, Spinner, Text, Textarea, tokens } from '@fluentui/react-components';
import { ROOM_COMMENT_MAX, type RoomComment } from '@shared/contract/room-comments';
import type { RoomRole } from '@shared/contract/rooms';
import { Alert } from '@web/components/alert';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent } from 'react';
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

/**
 * The details sidebar's Comments tab (SPEC §2; issue 31 §1): the comments on a file or folder,
 * oldest first with author and time; OWNERs and EDITORs add and edit or delete their own, an OWNER
 * deletes anyone's (after a confirmation); VIEWERs and PREVIEWERs read.
 */
export function CommentsTab({ roomUuid, target, role, itemName }: { roomUuid: string; target: CommentTarget; role: RoomRole; itemName: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const problemOf = useCommentProblem();
  const comments = useRoomComments(roomUuid, target);
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
      await addComment(roomUuid, target, draft);
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
      {!comments.data && !comments.error ? <Spinner size="tiny" label={t('common:loading')} /> : null}
      {comments.data && comments.data.comments.length === 0 ? <Text as="p">{t('roomComments:comments.empty')}</Text> : null}
      {comments.data && comments.data.comments.length > 0 ? (
        <ul className={styles.list}>
          {comments.data.comments.map((comment) => (
            <CommentItem key={comment.uuid} roomUuid={roomUuid} comment={comment} role={role} onDelete={() => askDelete(comment)} />
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

function CommentItem({ roomUuid, comment, role, onDelete }: { roomUuid: string; comment: RoomComment; role: RoomRole; onDelete: () => void }) {
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
      await editComment(roomUuid, comment.uuid, editing);
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
        <p className={styles.text}>{comment.text}</p>
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
          {may.edit ? (
            <Button size="small" onClick={() => setEditing(comment.text)} aria-label={t('roomComments:comments.editOf', { name: author })}>
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
