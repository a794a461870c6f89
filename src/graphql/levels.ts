/**
 * Level synchronisation for GraphQL execution.
 *
 * graphql-js calls field resolvers as soon as their parent value is ready, so with plain
 * DataLoaders a relationship reached through two branches that finish at different times is
 * loaded in two batches. Here every relationship load waits at the gate of its tree level. A
 * gate opens once nothing shallower is still running (root methods, loads of upper levels):
 * by then every parent of that level exists, graphql-js has called every resolver of the
 * level, and all keys reach each DataLoader in the same tick — one call per loader per level.
 *
 * "Nothing shallower is running" is checked from `setImmediate`, i.e. after the microtask
 * queue has drained, which is when graphql-js has finished walking the values that arrived.
 */

interface Gate {
  open: () => void;
  promise: Promise<void>;
}

export class LevelScheduler {
  /** Unsettled operations per depth: root methods and loads (waiting or dispatched). */
  private readonly running: number[] = [];
  private readonly gates = new Map<number, Gate>();
  private checkQueued = false;

  /** Count `promise` as running at `depth` until it settles. */
  track<T>(depth: number, promise: Promise<T>): Promise<T> {
    this.running[depth] = (this.running[depth] ?? 0) + 1;
    const done = () => {
      this.running[depth]!--;
      this.queueCheck();
    };
    promise.then(done, done);
    return promise;
  }

  /** Run `load` once every level above `depth` has settled; the result counts as running at `depth`. */
  atLevel<T>(depth: number, load: () => PromiseLike<T>): Promise<T> {
    let gate = this.gates.get(depth);
    if (!gate) {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { open, promise };
      this.gates.set(depth, gate);
    }
    this.queueCheck();
    return this.track(depth, gate.promise.then(load));
  }

  private queueCheck(): void {
    if (this.checkQueued) return;
    this.checkQueued = true;
    setImmediate(() => {
      this.checkQueued = false;
      this.openReadyGates();
    });
  }

  private openReadyGates(): void {
    if (!this.gates.size) return;
    const depths = [...this.gates.keys()].sort((a, b) => a - b);
    let shallower = 0;
    let at = 0;
    for (const depth of depths) {
      for (; at < depth; at++) shallower += this.running[at] ?? 0;
      if (shallower > 0) return;
      const gate = this.gates.get(depth)!;
      this.gates.delete(depth);
      gate.open();
    }
  }
}
