// The same tests as ../phone-and-keyboard.test.ts, in Firefox.
import './use-firefox';
import '../phone-and-keyboard.test';
