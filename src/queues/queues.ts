import { FlowProducer, Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, queuePrefix } from './definitions';

export type QueueName = keyof typeof QUEUES;

/**
 * The one owner of every BullMQ Queue and FlowProducer a process opens (workers are the job
 * handlers' own, in src/app/jobs). Each is opened on first use on the process's shared Redis
 * connection and kept: a Queue on a shared ioredis client costs no connection of its own, and
 * opening one per call (as retry, finalize and the webhook once did) loaded BullMQ's scripts again
 * each time. `close()` closes them all (the Runtime's close); users never close one.
 */
export class Queues {
  private readonly open = new Map<QueueName, Queue>();
  private flowProducer: FlowProducer | null = null;
  private closed = false;

  constructor(
    private readonly connection: ConnectionOptions,
    readonly prefix: string,
  ) {}

  /** The queue named by photowire's short name (`item`, `batch`, `schedule`, `killWebhook`, `retention`). */
  queue(name: QueueName): Queue {
    this.assertOpen();
    let q = this.open.get(name);
    if (!q)
      this.open.set(
        name,
        (q = new Queue(QUEUES[name], { connection: this.connection, prefix: queuePrefix(this.prefix) })),
      );
    return q;
  }

  /** Adds a batch's finalize job with its item jobs as children, atomically (one flow). */
  get flow(): FlowProducer {
    this.assertOpen();
    this.flowProducer ??= new FlowProducer({ connection: this.connection, prefix: queuePrefix(this.prefix) });
    return this.flowProducer;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all: Array<Queue | FlowProducer> = [...this.open.values(), ...(this.flowProducer ? [this.flowProducer] : [])];
    this.open.clear();
    this.flowProducer = null;
    await Promise.allSettled(all.map((q) => q.close()));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the queues of this process are closed');
  }
}
