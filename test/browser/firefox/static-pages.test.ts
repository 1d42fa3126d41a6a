// The same tests as ../static-pages.test.ts, in Firefox.
import './use-firefox';
import '../static-pages.test';
