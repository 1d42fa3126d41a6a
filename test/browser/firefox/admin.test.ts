// The same tests as ../admin.test.ts, in Firefox.
import './use-firefox';
import '../admin.test';
