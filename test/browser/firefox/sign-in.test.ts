// The same tests as ../sign-in.test.ts, in Firefox.
import './use-firefox';
import '../sign-in.test';
