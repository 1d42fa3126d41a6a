/**
 * The compose box, always under the message view: stream + topic or direct recipients (a
 * toggle), the Message textbox, Send, uploads, preview, typing notifications, drafts. Opening a
 * view fills in its conversation.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../common/api';
import { Drafts, type DraftConversation } from '../state/drafts';
import { TypingSender, typingParams, type TypingDestination } from '../state/typing';
import { echoHtml } from './completion';
import { fieldsFor, fieldsOfMessage, NO_FIELDS, type Fields } from './compose-fields';
import { resolveRecipients } from './recipient-rules';
import { RecipientFields } from './recipients';
import { MessageBox } from './message-box';
import { MessageHtml } from './message-html';
import type { ReplyRequests } from './reply';
import type { ChatState, ChatStore } from './store';
import { UnsentMessage } from './store-deps';
import { uploadInto, type ComposeBox } from './upload';

function conversationOf(fields: Fields): DraftConversation {
  return fields.mode === 'stream' ? { type: 'stream', stream: fields.stream, topic: fields.topic } : { type: 'direct', to: fields.to };
}

export function Compose({ store, state, replies }: { store: ChatStore; state: ChatState; replies: ReplyRequests }) {
  const { snapshot, narrow } = state;
  const [fields, setFields] = useState<Fields>(NO_FIELDS);
  const [content, setContent] = useState('');
  const [error, setError] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const myId = snapshot?.me.user_id;
  const emojiset = snapshot?.userSettings['emojiset'];
  const drafts = useMemo(() => (myId === undefined ? null : new Drafts(localStorage, myId)), [myId]);
  const typing = useMemo(
    () =>
      new TypingSender({
        send: (op, destination) => void api.post('/typing', typingParams(op, destination)).catch(() => undefined),
        now: () => Date.now(),
        setTimeout: (run, ms) => setTimeout(run, ms),
        clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      }),
    [],
  );

  // Opening a view fills in its conversation and brings back its draft, before the page is
  // painted, so nothing typed can land in the previous conversation's fields.
  useLayoutEffect(() => {
    if (!snapshot || !drafts) return;
    const next = fieldsFor(narrow, snapshot, fieldsRef.current);
    setFields(next);
    setContent(drafts.load(conversationOf(next)));
    setPreview(null);
    setError('');
    // Only a new view (or signing in) fills the fields: later events must not reset what the person typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new snapshot alone must not refill them
  }, [narrow, drafts]);

  // A click on a message (not on its links or buttons, nor in a dialog it opened) makes its conversation the one written to.
  const clicked = useRef({ list: state.list, snapshot, drafts });
  clicked.current = { list: state.list, snapshot, drafts };
  useEffect(() => {
    const follow = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      const article = target?.closest<HTMLElement>('.feed article[data-message-id]');
      if (!article || target?.closest('a, button, input, select, textarea, dialog, [role="menu"], .message-extras')) return;
      const { list, snapshot: shown, drafts: saved } = clicked.current;
      const message = list.messages.find((candidate) => String(candidate.id) === article.dataset['messageId']);
      if (!message || !shown) return;
      const next = fieldsOfMessage(message, shown);
      setFields(next);
      if (saved) setContent(saved.load(conversationOf(next)));
      setPreview(null);
      setError('');
    };
    document.addEventListener('click', follow);
    return () => document.removeEventListener('click', follow);
  }, []);

  // Reply and Quote and reply: the message's conversation, its draft kept, the quote added after it.
  const snapshotRef = useRef(snapshot);
  snapshotRef.current = snapshot;
  useEffect(
    () =>
      replies.subscribe(({ message, quote }) => {
        const current = snapshotRef.current;
        if (!current || !drafts) return;
        const next = fieldsOfMessage(message, current);
        const typed = drafts.load(conversationOf(next));
        const text = quote === null ? typed : typed.trim() === '' ? quote : `${typed}\n${quote}`;
        setFields(next);
        setContent(text);
        drafts.save(conversationOf(next), text);
        setPreview(null);
        requestAnimationFrame(() => {
          textarea.current?.focus();
          textarea.current?.setSelectionRange(text.length, text.length);
        });
      }),
    [replies, drafts],
  );

  const changeFields = (change: Partial<Fields>) => {
    const next = { ...fields, ...change };
    setFields(next);
    if (drafts && content === '') setContent(drafts.load(conversationOf(next)));
    else drafts?.save(conversationOf(next), content);
  };

  const destination = (): TypingDestination | null => {
    if (!snapshot) return null;
    const resolved = resolveRecipients(snapshot, fields);
    if ('error' in resolved) return null;
    return resolved.type === 'stream'
      ? { type: 'stream', streamId: resolved.to, topic: resolved.topic }
      : { type: 'direct', to: resolved.to };
  };

  const changeContent = (text: string) => {
    setContent(text);
    drafts?.save(conversationOf(fields), text);
    const where = destination();
    if (where && text.trim() !== '') typing.typed(where);
  };

  const send = () => {
    if (!snapshot) return;
    const text = content.trim();
    if (text === '') return;
    const resolved = resolveRecipients(snapshot, fields);
    if ('error' in resolved) {
      setError(resolved.error);
      return;
    }
    typing.stop();
    setError('');
    setContent('');
    setPreview(null);
    drafts?.clear(conversationOf(fields));
    // Ready for the next message, also after the Send button took the focus.
    textarea.current?.focus();
    store.send(resolved, text, echoHtml(text)).catch((failure: unknown) => {
      // It shows in the view as Not sent, with Retry and Discard; back in the box it could be sent twice.
      if (failure instanceof UnsentMessage) return;
      setError(failure instanceof ApiError ? failure.message : 'The message was not sent');
      // Nothing typed since: the text goes back into the box.
      setContent((current) => (current === '' ? text : current));
    });
  };

  // The box as an upload sees it: the conversation shown now, not the one of this render.
  const box: ComposeBox = {
    shown: () => conversationOf(fieldsRef.current),
    edit: (change) =>
      setContent((current) => {
        const next = change(current);
        drafts?.save(conversationOf(fieldsRef.current), next);
        return next;
      }),
    drafts,
  };

  const upload = async (files: File[]) => {
    // Every file goes where the upload started, whatever is shown when it ends.
    const conversation = box.shown();
    for (const file of files) {
      setProgress(0);
      try {
        await uploadInto(box, conversation, file, setProgress);
      } catch (failure) {
        setError(failure instanceof ApiError ? failure.message : 'The upload failed');
      } finally {
        setProgress(null);
      }
    }
    textarea.current?.focus();
  };

  const togglePreview = async () => {
    if (preview !== null) {
      setPreview(null);
      return;
    }
    if (content.trim() === '') return;
    try {
      const answer = await api.post<{ rendered: string }>('/messages/render', { content });
      setPreview(answer.rendered);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'No preview');
    }
  };

  return (
    <form
      class="compose"
      aria-label="Compose"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <RecipientFields
        snapshot={snapshot}
        mode={fields.mode}
        stream={fields.stream}
        topic={fields.topic}
        to={fields.to}
        onChange={changeFields}
      />
      {preview === null ? (
        <MessageBox
          snapshot={snapshot}
          value={content}
          onChange={changeContent}
          onSend={send}
          onFiles={(files) => void upload(files)}
          textarea={textarea}
        />
      ) : (
        // The server renders the preview and sanitizes it, as it does every message.
        <MessageHtml html={preview} class="preview message-content" label="Preview" myId={myId} emojiset={emojiset} />
      )}
      <div class="compose-actions">
        <label class="upload-button">
          <span>Upload files</span>
          <input
            type="file"
            multiple
            aria-label="Upload files"
            onChange={(event) => {
              const files = event.currentTarget.files ? [...event.currentTarget.files] : [];
              event.currentTarget.value = '';
              void upload(files);
            }}
          />
        </label>
        {progress !== null && <progress max={1} value={progress} aria-label="Upload progress" />}
        <button type="button" aria-pressed={preview !== null ? 'true' : 'false'} onClick={() => void togglePreview()}>
          Preview
        </button>
        <button type="submit" class="send" disabled={!snapshot}>
          Send
        </button>
      </div>
      <div role="alert" class="compose-error">
        {error}
      </div>
    </form>
  );
}
