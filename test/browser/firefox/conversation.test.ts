// The same tests as ../conversation.test.ts, in Firefox.
import './use-firefox';
import '../conversation.test';
