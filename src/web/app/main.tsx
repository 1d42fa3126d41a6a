/** The page's entry: styles, then the app rendered into index.html's #app. */
import 'katex/dist/katex.min.css';
import '../styles/app.css';
import '../styles/messages.css';
import '../styles/compose.css';
import '../styles/message-tools.css';
import '../styles/phone.css';
import { render } from 'preact';
import { api, csrfToken, onSignedOut } from '../common/api';
import { PresenceReporter } from '../state/presence-reporter';
import { App } from './app';
import { ChatStore } from './store';
import { signIn } from './store-deps';
import { currentNarrow } from './routing';

const root = document.getElementById('app');
if (root) {
  // Every call, the panels' included: an ended session goes back to the sign-in page.
  onSignedOut(signIn);
  const store = new ChatStore(currentNarrow());
  store.start();
  render(<App store={store} />, root);
  const presence = new PresenceReporter({
    post: (path, params) => api.post(path, params),
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
    now: () => Date.now(),
    visible: () => document.visibilityState === 'visible',
  });
  presence.start();
  for (const input of ['keydown', 'pointerdown', 'pointermove', 'focus'] as const)
    window.addEventListener(input, () => presence.noteInput(), { passive: true });
  window.addEventListener('pagehide', (event) => {
    // A page kept in the back-forward cache comes back to its queue; one that is gone frees it.
    if (event.persisted) return;
    store.flushReadNow();
    if (store.queueId) {
      void fetch('/json/events', {
        method: 'DELETE',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'X-CSRF-Token': csrfToken() },
        body: new URLSearchParams({ queue_id: store.queueId }),
      }).catch(() => undefined);
    }
  });
}
