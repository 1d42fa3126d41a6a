// The same tests as ../crash.test.ts, in Firefox.
import './use-firefox';
import '../crash.test';
