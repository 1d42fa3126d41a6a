// The same tests as ../notifications.test.ts, in Firefox.
import './use-firefox';
import '../notifications.test';
