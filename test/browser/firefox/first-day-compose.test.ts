// The same tests as ../first-day-compose.test.ts, in Firefox.
import './use-firefox';
import '../first-day-compose.test';
