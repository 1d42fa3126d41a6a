import fs from 'node:fs';
import { measure, report, type Load, type Measured } from './lib/measure';
import { ownerAuthHeader, rssMiB, startCeiling, startChatServer } from './lib/processes';

const FILE_BYTES = 1024 * 1024;
const CONNECTIONS = 16;
const BOUNDARY = 'bench9-upload-boundary';
const MIB = 1024 * 1024;

/** One multipart/form-data body holding a 1 MiB file, as a client uploads it. */
function multipartBody(): Buffer {
  const file = Buffer.alloc(FILE_BYTES);
  for (let i = 0; i < file.length; i++) file[i] = (i * 31 + 7) & 0xff;
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Measures `load` while sampling the process's RSS every 50 ms; returns the peak too. */
async function measureWithPeakRss(load: Load, pid: number): Promise<{ measured: Measured; peakRssMiB: number }> {
  let peak = rssMiB(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  try {
    return { measured: await measure(load), peakRssMiB: peak };
  } finally {
    clearInterval(sampler);
  }
}

function megabytesPerSecond(measured: Measured): string {
  return ((measured.requestsPerSecond * FILE_BYTES) / MIB).toFixed(0);
}

/**
 * POST /user_uploads of a 1 MiB file (multipart) and GET of it back at the root path, as the
 * uploader, 16 connections (issue 9). The ceiling moves the same bytes through the same process
 * layout: the body received into one buffer, transferred to a worker, and the bytes transferred
 * back for the GET (bench/lib/ceiling-server.ts bytes). The server's peak RSS during the upload
 * run checks that a body is held as one copy (src/http/server.ts).
 */
export async function run(): Promise<void> {
  const server = await startChatServer();
  const ceiling = await startCeiling('bytes');
  try {
    const auth = ownerAuthHeader(server.dataDir);
    const body = multipartBody();
    const postHeaders = { Authorization: auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
    const first = await fetch(`${server.url}/api/v1/user_uploads`, { method: 'POST', headers: postHeaders, body });
    const uri = String(((await first.json()) as Record<string, unknown>)['uri']);
    const idleRss = rssMiB(server.pid);
    const ceilingIdleRss = rssMiB(ceiling.pid);
    const upload = await measureWithPeakRss(
      { url: `${server.url}/api/v1/user_uploads`, method: 'POST', headers: postHeaders, body, connections: CONNECTIONS },
      server.pid,
    );
    const uploadCeiling = await measureWithPeakRss(
      { url: `${ceiling.url}/api/v1/user_uploads`, method: 'POST', headers: postHeaders, body, connections: CONNECTIONS },
      ceiling.pid,
    );
    report(`uploads POST 1 MiB (${CONNECTIONS} connections)`, upload.measured, uploadCeiling.measured, 'bytes through the worker');
    console.log(
      `  upload: ${megabytesPerSecond(upload.measured)} MiB/s | ceiling ${megabytesPerSecond(uploadCeiling.measured)} MiB/s` +
        ` | server peak RSS ${upload.peakRssMiB.toFixed(0)} MiB (${idleRss.toFixed(0)} MiB idle;` +
        ` ${CONNECTIONS} bodies in flight are ${((CONNECTIONS * body.length) / MIB).toFixed(0)} MiB)` +
        ` | ceiling peak RSS ${uploadCeiling.peakRssMiB.toFixed(0)} MiB (${ceilingIdleRss.toFixed(0)} MiB idle)`,
    );
    const download = await measure({
      url: `${server.url}${uri}`,
      method: 'GET',
      headers: { Authorization: auth },
      connections: CONNECTIONS,
    });
    const downloadCeiling = await measure({
      url: `${ceiling.url}${uri}`,
      method: 'GET',
      headers: { Authorization: auth },
      connections: CONNECTIONS,
    });
    report(`uploads GET 1 MiB back (${CONNECTIONS} connections)`, download, downloadCeiling, 'bytes through the worker');
    console.log(`  download: ${megabytesPerSecond(download)} MiB/s | ceiling ${megabytesPerSecond(downloadCeiling)} MiB/s`);
  } finally {
    await server.stop();
    await ceiling.stop();
    // Every upload is kept in the realm file: gigabytes after a run.
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) void run();
