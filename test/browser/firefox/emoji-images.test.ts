// The same tests as ../emoji-images.test.ts, in Firefox.
import './use-firefox';
import '../emoji-images.test';
