/** The page's entry: styles, then the app rendered into index.html's #app. */
import 'katex/dist/katex.min.css';
import '../styles/app.css';
import '../styles/messages.css';
import '../styles/compose.css';
import { render } from 'preact';
import { App } from './app';
import { ChatStore } from './store';
import { currentNarrow } from './routing';

const root = document.getElementById('app');
if (root) {
  const store = new ChatStore(currentNarrow());
  store.start();
  render(<App store={store} />, root);
}
