/** Imported first by every test file in this folder: the browser tests it then loads run in Firefox. */
import { useBrowser } from '../harness';

useBrowser('firefox');
