// The same tests as ../highlighting.test.ts, in Firefox.
import './use-firefox';
import '../highlighting.test';
