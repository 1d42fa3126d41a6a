import path from 'node:path';
import Piscina from 'piscina';
import type { MarkdownContext, RenderResult } from '../markdown';
import { renderTask, type RenderTask, type RenderTaskResult } from './task';

export interface Rendered {
  result: RenderResult;
  topicLinks: { text: string; url: string }[];
}

/**
 * Where Markdown is rendered: on `threads` piscina threads (DESIGN §piscina: CPU work off the
 * realm thread, so one busy realm can use more than one core), or inline on the shard thread
 * when `threads` is 0. Both run the same pure task function.
 */
export class Renderer {
  private readonly pool: Piscina | null;

  constructor(threads: number) {
    this.pool =
      threads > 0
        ? new Piscina({
            filename: path.join(__dirname, 'pool-entry.js'),
            name: 'renderTask',
            minThreads: threads,
            maxThreads: threads,
            // Idle pool threads must not park in Atomics.wait (DESIGN: it stalls timers).
            atomics: 'disabled',
          })
        : null;
  }

  async render(task: Omit<RenderTask, 'context'>, loadContext: () => MarkdownContext): Promise<Rendered> {
    let answer = await this.run(task);
    if (answer.kind === 'need_context') answer = await this.run({ ...task, context: loadContext() });
    if (answer.kind === 'need_context') throw new Error('render context rejected twice');
    return { result: answer.result, topicLinks: answer.topicLinks };
  }

  /** The pool's threads, tasks waiting for one, share of time busy (0–1) and tasks done. */
  stats(): { threads: number; queued: number; utilization: number; completed: number } {
    const pool = this.pool;
    if (!pool) return { threads: 0, queued: 0, utilization: 0, completed: 0 };
    return { threads: pool.threads.length, queued: pool.queueSize, utilization: pool.utilization, completed: pool.completed };
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }

  private run(task: RenderTask): Promise<RenderTaskResult> {
    if (!this.pool) return Promise.resolve(renderTask(task));
    return this.pool.run(task) as Promise<RenderTaskResult>;
  }
}
