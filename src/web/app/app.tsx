/**
 * The shell: top bar, the left column of streams and conversations, the open view with its
 * compose box, and the people list on the right.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { PeopleList } from './panels';
import { narrowTitle } from '../state/narrow';
import { NotificationOffer, showIconBadge, useMessageAlerts } from './attention';
import { Compose } from './compose';
import { useComposeFocus } from './compose-focus';
import { DrawerBackdrop, DrawerButton, useDrawers } from './drawers';
import { ImageViewer } from './image-viewer';
import { useShortcuts } from './keyboard';
import { LeftColumn } from './left-column';
import { MarkReadButtons } from './mark-read';
import { attentionCount } from './notifications';
import { MessageView } from './message-view';
import { ReplyRequests } from './reply';
import { currentNarrow, showInAddress } from './routing';
import { ShortcutsHelp, SkipToCompose } from './shortcuts-help';
import { ConnectionStatus, TypingStatus } from './status';
import { useChat, type ChatStore } from './store';
import { useColorScheme } from './theme';
import { TopBar } from './top-bar';

export function App({ store }: { store: ChatStore }) {
  const state = useChat(store);
  const { snapshot, narrow } = state;
  const replies = useMemo(() => new ReplyRequests(), []);
  useColorScheme(snapshot?.userSettings['color_scheme']);
  const drawers = useDrawers(narrow);
  const [helpShown, setHelpShown] = useState(false);
  const composing = useComposeFocus();
  useShortcuts(state, { drawers, showHelp: () => setHelpShown(true) });

  useEffect(() => {
    const follow = () => store.open(currentNarrow());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [store]);

  const narrowShown = useRef(narrow);
  const myId = snapshot?.me.user_id;
  useEffect(() => {
    showInAddress(narrow, narrowShown.current, myId);
    narrowShown.current = narrow;
  }, [narrow, myId]);

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
    <div class="shell" data-drawer={drawers.open ?? undefined} data-composing={composing ? 'true' : undefined}>
      <SkipToCompose />
      <TopBar snapshot={snapshot} realmName={realmName} />
      {snapshot && <NotificationOffer snapshot={snapshot} />}
      <div class="columns">
        {snapshot ? <LeftColumn state={state} snapshot={snapshot} /> : <nav aria-label="Streams" class="left-column" />}
        <main class="middle">
          <div class="view-header">
            <DrawerButton drawers={drawers} name="views" />
            <h1 class="view-title">{title}</h1>
            <MarkReadButtons narrow={narrow} unread={state.unread} />
            <DrawerButton drawers={drawers} name="people" />
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
      <DrawerBackdrop drawers={drawers} />
      <ImageViewer />
      {helpShown && <ShortcutsHelp onClose={() => setHelpShown(false)} />}
    </div>
  );
}
