/** A placeholder until the client core lands: mounts an empty shell with the page's styles. */
import 'katex/dist/katex.min.css';
import { render } from 'preact';

const root = document.getElementById('app');
if (root) render(<main>Loading…</main>, root);
