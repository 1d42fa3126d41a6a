// The same tests as ../personal.test.ts, in Firefox.
import './use-firefox';
import '../personal.test';
