/** What the chat store needs from the browser, and the errors it tells apart. */
import { api } from '../common/api';
import type { EventLoopApi } from '../state/event-loop';

export function signIn(): void {
  location.assign('/login');
}

/** What the store needs from the browser, injected so unit tests drive it without one. */
export interface StoreDeps {
  api: EventLoopApi;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  now: () => number;
  random: () => number;
  signIn: () => void;
}

export function browserDeps(): StoreDeps {
  return {
    api,
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
    random: Math.random,
    signIn,
  };
}

/** A send that failed while its message shows in the view, where Retry and Discard are offered. */
export class UnsentMessage extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : 'The message was not sent');
  }
}

export function isSignedOut(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 401;
}
