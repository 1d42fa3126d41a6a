import uWS from 'uWebSockets.js';

/**
 * The ceiling of the long-poll scenarios: a bare uWS server that parks every GET and, on any
 * POST, answers all parked GETs at once with an event-sized body, from outside the request
 * callback and corked (DESIGN §Measured), then the POST itself. No realm, no worker hop.
 */
const port = Number(process.argv[2]);
const eventBody = JSON.stringify({
  result: 'success',
  msg: '',
  events: [
    {
      type: 'message',
      message: {
        id: 1,
        sender_id: 1,
        sender_email: 'owner@example.com',
        sender_full_name: 'Organization Owner',
        sender_realm_str: 'default',
        avatar_url: null,
        client: 'bench',
        content: '<p>Hello, <strong>world</strong>!</p>',
        content_type: 'text/html',
        display_recipient: 'bench stream',
        is_me_message: false,
        reactions: [],
        recipient_id: 5,
        subject: 'bench',
        submessages: [],
        timestamp: 1,
        topic_links: [],
        type: 'stream',
        stream_id: 2,
      },
      flags: [],
      id: 0,
    },
  ],
});
const parked = new Set<uWS.HttpResponse>();
// A poll that arrives after the release is answered at once, as a queue with news would be:
// the release says how many polls there are (?polls=N).
let owedAnswers = 0;
const app = uWS.App();
const answer = (res: uWS.HttpResponse): void => {
  res.cork(() => res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(eventBody));
};
app.get('/*', (res) => {
  if (owedAnswers > 0) {
    owedAnswers--;
    return answer(res);
  }
  parked.add(res);
  res.onAborted(() => parked.delete(res));
});
app.any('/*', (res, req) => {
  const polls = Number(new URLSearchParams(req.getQuery() ?? '').get('polls') ?? 0);
  let aborted = false;
  res.onAborted(() => (aborted = true));
  res.onData((_chunk, isLast) => {
    if (!isLast) return;
    setImmediate(() => {
      for (const waiting of parked) answer(waiting);
      owedAnswers = Math.max(0, polls - parked.size);
      parked.clear();
      if (!aborted)
        res.cork(() =>
          res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end('{"result":"success","msg":"","id":1}'),
        );
    });
  });
});
app.listen('127.0.0.1', port, (socket) => {
  if (!socket) process.exit(1);
});
process.on('SIGTERM', () => process.exit(0));
