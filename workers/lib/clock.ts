/**
 * Time as actors see it (STYLE §2.4 habit 9): injected, so a unit test can drive an actor with
 * a fake clock instead of sleeping.
 */
export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the UNIX epoch. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The clock's time in whole seconds since the UNIX epoch, as the API's timestamps count. */
export function epochSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
