import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './server';

/** Every file under `dir` (relative to the repository's root), recursively, as paths relative to the root. */
export function repositoryFiles(dir: string): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return repositoryFiles(relative);
    return entry.isFile() ? [relative] : [];
  });
}
