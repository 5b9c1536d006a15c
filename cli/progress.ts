/**
 * The progress indicator of a build: on a terminal, one line on stderr with a spinner, the
 * deployment's status and the time so far, redrawn in place and cleared before each log line;
 * elsewhere (CI, pipes) each status change once, as a line on stderr.
 */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export class Progress {
  private status = 'starting';
  private frame = 0;
  private shown = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly started = Date.now();

  constructor(
    private readonly write: (text: string) => void,
    private readonly tty: boolean,
  ) {
    if (tty) {
      this.timer = setInterval(() => this.draw(), 100);
      this.timer.unref();
    }
  }

  seconds(): string {
    return `${((Date.now() - this.started) / 1000).toFixed(1)} s`;
  }

  setStatus(status: string): void {
    if (status === this.status) return;
    this.status = status;
    if (!this.tty) this.write(`… ${status}\n`);
    else this.draw();
  }

  /** Prints above the indicator. */
  above(print: () => void): void {
    this.clear();
    print();
    if (this.tty) this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  private clear(): void {
    if (this.shown) this.write('\r\x1b[K');
    this.shown = false;
  }

  private draw(): void {
    if (!this.timer) return;
    this.frame = (this.frame + 1) % FRAMES.length;
    this.write(`\r\x1b[K${FRAMES[this.frame]} ${this.status} ${this.seconds()}`);
    this.shown = true;
  }
}

/** `[██████░░░░░░]`: a fraction (0 to 1) as a bar of `width` cells. */
export function bar(fraction: number, width = 20): string {
  const full = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'█'.repeat(full)}${'░'.repeat(width - full)}]`;
}
