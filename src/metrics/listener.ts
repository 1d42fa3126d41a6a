import http from 'node:http';
import type { Logger } from '../log';
import type { ServerMetrics } from './metrics';

// Loopback only: the figures name realms and routes, and a scrape costs every shard a round
// trip; a Prometheus on another machine scrapes through an SSH tunnel or a local agent.
const METRICS_HOST = '127.0.0.1';

/** `GET /metrics` on its own port (METRICS_PORT), never on the public one. */
export class MetricsListener {
  private readonly server: http.Server;

  constructor(
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
  ) {
    this.server = http.createServer((req, res) => void this.answer(req, res));
  }

  /** Resolves with the port listened on. */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, METRICS_HOST, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://metrics');
    if (url.pathname !== '/metrics') return json(res, 404, { result: 'error', msg: 'Not found' });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return json(res, 405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
    }
    try {
      const text = await this.metrics.scrape();
      res.writeHead(200, { 'Content-Type': this.metrics.registry.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
    } catch (err) {
      this.log.error({ err }, 'metrics scrape failed');
      json(res, 500, { result: 'error', msg: 'The metrics could not be gathered; the server log says why' });
    }
  }
}

function json(res: http.ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
