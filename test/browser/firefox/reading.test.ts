// The same tests as ../reading.test.ts, in Firefox.
import './use-firefox';
import '../reading.test';
