// The same tests as ../message-tools.test.ts, in Firefox.
import './use-firefox';
import '../message-tools.test';
