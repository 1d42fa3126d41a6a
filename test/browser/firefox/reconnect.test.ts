// The same tests as ../reconnect.test.ts, in Firefox.
import './use-firefox';
import '../reconnect.test';
