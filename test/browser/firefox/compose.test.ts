// The same tests as ../compose.test.ts, in Firefox.
import './use-firefox';
import '../compose.test';
