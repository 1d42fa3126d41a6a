import '../styles/login.css';
import { afterSignIn, signInError } from './redirect';

/*
 * The sign-in page (src/web/pages/login.html): POST /login with the form, then on to the app.
 * The session and CSRF cookies come back with the answer; this script never sees the session.
 */

function element<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the sign-in page lacks #${id}`);
  return found;
}

const form = element('login-form', HTMLFormElement);
const email = element('login-email', HTMLInputElement);
const password = element('login-password', HTMLInputElement);
const submit = element('login-submit', HTMLButtonElement);
const alertBox = element('login-error', HTMLParagraphElement);
const realmName = element('login-realm', HTMLParagraphElement);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void signIn();
});

async function signIn(): Promise<void> {
  submit.disabled = true;
  alertBox.textContent = '';
  try {
    const response = await fetch('/login', {
      method: 'POST',
      credentials: 'same-origin',
      body: new URLSearchParams({ username: email.value, password: password.value }),
    });
    const body = await readJson(response);
    if (response.ok && body?.['result'] === 'success') {
      // The redirect to sign-in kept the view's address in the fragment: go on to that view.
      const target = afterSignIn(location.search, location.origin);
      location.assign(target.includes('#') || !location.hash.startsWith('#narrow/') ? target : target + location.hash);
      return;
    }
    showError(signInError(response.status, body));
  } catch {
    showError('The server cannot be reached. Check your connection and try again.');
  }
  submit.disabled = false;
}

/** The email stays; the password is cleared and focused for the next try. */
function showError(text: string): void {
  alertBox.textContent = text;
  password.value = '';
  password.focus();
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const parsed: unknown = await response.json();
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The organization's name above the form, when the server tells it (no credentials needed). */
async function showRealmName(): Promise<void> {
  try {
    const response = await fetch('/json/server_settings', { credentials: 'same-origin' });
    const body = await readJson(response);
    const name = body?.['realm_name'];
    if (typeof name !== 'string' || name === '') return;
    realmName.textContent = name;
    realmName.hidden = false;
    document.title = `Sign in · ${name}`;
  } catch {
    // The form works without it.
  }
}

void showRealmName();
