/**
 * The shell: top bar, the left column of streams and conversations, the open view with its
 * compose box, and the people list on the right.
 */
import { useEffect, useMemo } from 'preact/hooks';
import { PeopleList } from './panels';
import { narrowTitle } from '../state/narrow';
import { NotificationOffer, showIconBadge, useMessageAlerts } from './attention';
import { Compose } from './compose';
import { ImageViewer } from './image-viewer';
import { LeftColumn } from './left-column';
import { MarkReadButtons } from './mark-read';
import { attentionCount } from './notifications';
import { MessageView } from './message-view';
import { ReplyRequests } from './reply';
import { currentNarrow, showInAddress } from './routing';
import { ConnectionStatus, TypingStatus } from './status';
import { useChat, type ChatStore } from './store';
import { useColorScheme } from './theme';
import { TopBar } from './top-bar';

export function App({ store }: { store: ChatStore }) {
  const state = useChat(store);
  const { snapshot, narrow } = state;
  const replies = useMemo(() => new ReplyRequests(), []);
  useColorScheme(snapshot?.userSettings['color_scheme']);

  useEffect(() => {
    const follow = () => store.open(currentNarrow());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [store]);

  useEffect(() => showInAddress(narrow), [narrow]);

  const realmName = typeof snapshot?.realm['realm_name'] === 'string' ? snapshot.realm['realm_name'] : '';
  const title = snapshot ? narrowTitle(narrow, snapshot) : '';
  // The unread count leads the tab's title and badges its icon (desktop_icon_count_display).
  const count = attentionCount(state.unread, snapshot?.userSettings['desktop_icon_count_display']);
  useEffect(() => {
    const name = [title, realmName].filter(Boolean).join(' · ') || 'Chat';
    document.title = count > 0 ? `(${count}) ${name}` : name;
  }, [title, realmName, count]);
  useEffect(() => showIconBadge(count), [count]);
  useMessageAlerts(store);

  return (
    <div class="shell">
      <TopBar snapshot={snapshot} realmName={realmName} />
      {snapshot && <NotificationOffer snapshot={snapshot} />}
      <div class="columns">
        {snapshot ? <LeftColumn state={state} snapshot={snapshot} /> : <nav aria-label="Streams" class="left-column" />}
        <main class="middle">
          <div class="view-header">
            <h1 class="view-title">{title}</h1>
            <MarkReadButtons narrow={narrow} unread={state.unread} />
          </div>
          <MessageView store={store} state={state} replies={replies} />
          <div class="status-line">
            <TypingStatus state={state} />
            <ConnectionStatus connection={state.connection} />
          </div>
          <Compose store={store} state={state} replies={replies} />
        </main>
        <div class="right-column">{snapshot && <PeopleList snapshot={snapshot} />}</div>
      </div>
      <ImageViewer />
    </div>
  );
}
