import http from 'node:http';

/** One scrape of GET /metrics, parsed. */
export interface Scrape {
  status: number;
  contentType: string;
  /** Each metric's declared type (`# TYPE name type`), by name. */
  types: Map<string, string>;
  /** Sample values by series, written `name{a="x",b="y"}` with the labels in name order. */
  samples: Map<string, number>;
}

/** The canonical series name: labels sorted by name, so a test need not know the exposition's order. */
export function series(name: string, labels: Record<string, string> = {}): string {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return name;
  return `${name}{${keys.map((key) => `${key}=${JSON.stringify(labels[key])}`).join(',')}}`;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text exposition format (names, labels, values; no timestamps). */
export function parseExposition(text: string): Pick<Scrape, 'types' | 'samples'> {
  const types = new Map<string, string>();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name = '', type = ''] = line.slice('# TYPE '.length).split(' ');
      types.set(name, type);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key = '', value = ''] of (match[2] ?? '').matchAll(LABEL)) labels[key] = JSON.parse(`"${value}"`) as string;
    samples.set(series(match[1] ?? '', labels), Number(match[3]));
  }
  return { types, samples };
}

/** GET `path` on the loopback metrics port. */
export function scrape(port: number, path = '/metrics', method = 'GET'): Promise<Scrape & { text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const parsed =
          res.statusCode === 200 ? parseExposition(text) : { types: new Map<string, string>(), samples: new Map<string, number>() };
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), text, ...parsed });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The sum of a metric's samples over every label set (e.g. every shard). */
export function total(scraped: Pick<Scrape, 'samples'>, name: string): number {
  let sum = 0;
  for (const [key, value] of scraped.samples) if (key === name || key.startsWith(`${name}{`)) sum += value;
  return sum;
}
