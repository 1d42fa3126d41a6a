// The same tests as ../admin-workspace.test.ts, in Firefox.
import './use-firefox';
import '../admin-workspace.test';
