// The same tests as ../edit-history.test.ts, in Firefox.
import './use-firefox';
import '../edit-history.test';
