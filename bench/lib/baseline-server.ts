import uWS from 'uWebSockets.js';

/**
 * The same-run baseline of every HTTP scenario: uWS reading the request (and its body) and
 * answering a fixed success envelope, with no realm, no worker hop and no storage.
 */
const port = Number(process.argv[2]);
const body = JSON.stringify({ result: 'success', msg: '', id: 1 });
const app = uWS.App();
app.any('/*', (res, req) => {
  const hasBody = req.getHeader('content-length') !== '';
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const reply = (): void => {
    if (aborted) return;
    res.cork(() => res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(body));
  };
  if (!hasBody) return reply();
  res.onData((_chunk, isLast) => {
    if (isLast) reply();
  });
});
app.listen('127.0.0.1', port, (socket) => {
  if (!socket) process.exit(1);
});
process.on('SIGTERM', () => process.exit(0));
