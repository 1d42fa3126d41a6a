/**
 * A one-line progress bar on stderr for the long commands (backup, restore, check, export,
 * import), drawn only when stdout is a terminal: scripts reading the output get none of it.
 */
export class ProgressBar {
  private lastDrawn = -1;
  private readonly enabled: boolean;

  constructor(
    private readonly label: string,
    enabled = process.stdout.isTTY === true,
  ) {
    this.enabled = enabled;
  }

  update(done: number, total: number): void {
    if (!this.enabled || total <= 0) return;
    const percent = Math.min(100, Math.floor((done / total) * 100));
    if (percent === this.lastDrawn) return;
    this.lastDrawn = percent;
    const width = 30;
    const filled = Math.round((percent / 100) * width);
    process.stderr.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}%`);
  }

  /** Clears the line, so the command's own output starts on a clean one. */
  done(): void {
    if (!this.enabled || this.lastDrawn < 0) return;
    process.stderr.write('\r\x1b[2K');
    this.lastDrawn = -1;
  }
}
