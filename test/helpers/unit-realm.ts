import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createRealm } from '../../workers/db/create-realm';
import type { Clock } from '../../workers/lib/clock';
import { Realm } from '../../workers/realm';
import { Renderer } from '../../workers/render/pool';

/**
 * A new realm on a fresh data directory, opened on this thread as a shard opens it, for unit
 * tests of actions and actors; its owner is "O" (o@<subdomain>.test). Given a `clock`, the
 * realm's actions read the time from it; given an `eventCheck`, each published event passes it.
 */
export async function newUnitRealm(subdomain: string, clock?: Clock, eventCheck?: (event: unknown) => void): Promise<Realm> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-unit-'));
  const created = await createRealm(dataDir, { subdomain, name: subdomain, ownerEmail: `o@${subdomain}.test`, ownerName: 'O' });
  return new Realm(subdomain, created.file, {
    externalHost: 'localhost',
    isDefault: false,
    log: pino({ level: 'silent' }),
    renderer: new Renderer(0),
    ...(clock ? { clock } : {}),
    ...(eventCheck ? { eventCheck } : {}),
  });
}

/** A field of a published event, read by name (the union's members each declare their own). */
export function eventField(queued: { event: object } | undefined, name: string): unknown {
  return queued === undefined ? undefined : (Object.entries(queued.event).find(([key]) => key === name)?.[1] as unknown);
}
