// The same tests as ../messages.test.ts, in Firefox.
import './use-firefox';
import '../messages.test';
