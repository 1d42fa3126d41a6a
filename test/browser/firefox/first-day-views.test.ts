// The same tests as ../first-day-views.test.ts, in Firefox.
import './use-firefox';
import '../first-day-views.test';
