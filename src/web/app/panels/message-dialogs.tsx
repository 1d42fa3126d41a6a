/** The dialogs a message's menu opens: edit its Markdown, move its topic, confirm deleting it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { ChatSnapshot, Message } from '../../common/types';
import { ErrorAlert, Modal, useAction } from './ui';

interface MessageDialogProps {
  snapshot: ChatSnapshot;
  message: Message;
  onClose: () => void;
}

/** Loads the message's Markdown (the list holds only its HTML), then saves the new content. */
export function EditDialog({ message, onClose }: MessageDialogProps) {
  const [content, setContent] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const load = useAction();
  const save = useAction();
  useEffect(() => {
    void load.run(async () => {
      const answer = await api.get<{ raw_content?: string; message?: { content?: string } }>(`/messages/${message.id}`, {
        apply_markdown: false,
      });
      setContent(answer.message?.content ?? answer.raw_content ?? '');
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `load` is a new object each render; loading follows the message alone
  }, [message.id]);
  const loaded = content !== null;
  useEffect(() => {
    if (loaded) textarea.current?.focus();
  }, [loaded]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (content === null) return;
    if (await save.run(() => api.patch(`/messages/${message.id}`, { content }))) onClose();
  };

  return (
    <Modal title="Edit message" onClose={onClose}>
      <form onSubmit={submit} class="panel-form">
        <label>
          Message content
          <textarea
            ref={textarea}
            rows={6}
            value={content ?? ''}
            disabled={content === null}
            onInput={(event) => setContent(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit(event);
            }}
          />
        </label>
        <ErrorAlert error={load.error || save.error} />
        <div class="panel-buttons">
          <button type="submit" disabled={content === null || save.busy}>
            Save
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export function MoveDialog({ snapshot, message, onClose, canMoveStream }: MessageDialogProps & { canMoveStream: boolean }) {
  const [topic, setTopic] = useState(message.subject);
  const [streamId, setStreamId] = useState(message.stream_id ?? 0);
  const [mode, setMode] = useState<PropagateMode>('change_all');
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const save = useAction();
  const streams = [...snapshot.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));

  const submit = async (event: Event) => {
    event.preventDefault();
    const moved = streamId !== message.stream_id;
    const params = {
      topic: topic.trim() === message.subject ? undefined : topic.trim(),
      stream_id: moved ? streamId : undefined,
      propagate_mode: mode,
      send_notification_to_old_thread: notifyOld,
      send_notification_to_new_thread: notifyNew,
    };
    if (await save.run(() => api.patch(`/messages/${message.id}`, params))) onClose();
  };

  return (
    <Modal title="Move topic" onClose={onClose}>
      <form onSubmit={submit} class="panel-form">
        <label>
          New topic
          <input type="text" value={topic} onInput={(event) => setTopic(event.currentTarget.value)} />
        </label>
        {canMoveStream && (
          <label>
            Stream
            <select value={String(streamId)} onChange={(event) => setStreamId(Number(event.currentTarget.value))}>
              {streams.map((stream) => (
                <option key={stream.stream_id} value={String(stream.stream_id)}>
                  {stream.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Which messages
          <select value={mode} onChange={(event) => setMode(event.currentTarget.value as PropagateMode)}>
            <option value="change_one">Only this message</option>
            <option value="change_later">This and later messages</option>
            <option value="change_all">All messages in the topic</option>
          </select>
        </label>
        <label class="panel-check">
          <input type="checkbox" checked={notifyOld} onChange={(event) => setNotifyOld(event.currentTarget.checked)} />
          Send a notification to the old topic
        </label>
        <label class="panel-check">
          <input type="checkbox" checked={notifyNew} onChange={(event) => setNotifyNew(event.currentTarget.checked)} />
          Send a notification to the new topic
        </label>
        <ErrorAlert error={save.error} />
        <div class="panel-buttons">
          <button type="submit" disabled={save.busy}>
            Move
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function DeleteDialog({ message, onClose }: MessageDialogProps) {
  const remove = useAction();
  const confirm = async () => {
    if (await remove.run(() => api.delete(`/messages/${message.id}`))) onClose();
  };
  return (
    <Modal title="Delete message" onClose={onClose}>
      <p>Delete this message? This cannot be undone.</p>
      <ErrorAlert error={remove.error} />
      <div class="panel-buttons">
        <button type="button" class="panel-danger" disabled={remove.busy} onClick={() => void confirm()}>
          Delete
        </button>
        <button type="button" autofocus onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
