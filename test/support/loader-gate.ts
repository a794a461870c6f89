/**
 * A loader that a cancellation test can hold mid-batch: `enter(info)` records the batch's
 * `LoaderInfo` and, while the gate is shut, says it arrived and waits until `open()`. The test
 * then cancels with the batch in flight and checks what the loader's signal saw. Waits are on
 * promises, never on time.
 */
import type { LoaderInfo } from 'ergraph';

export function loaderGate() {
  const seen: LoaderInfo[] = [];
  let shut: { arrive(): void; opened: Promise<void> } | undefined;
  return {
    /** Every batch's info, in the order the batches started. */
    seen,
    /** Called first by the loader. */
    async enter(info: LoaderInfo): Promise<void> {
      seen.push(info);
      if (shut) {
        shut.arrive();
        await shut.opened;
      }
    },
    /** Shuts the gate: `reached` settles when a batch waits at it; `open()` lets it (and later ones) through. */
    shut(): { reached: Promise<void>; open(): void } {
      let arrive!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrive = resolve));
      shut = { arrive, opened: new Promise<void>((resolve) => (release = resolve)) };
      return {
        reached,
        open: () => {
          shut = undefined;
          release();
        },
      };
    },
    /** Forgets the batches seen and opens the gate: each test starts from here. */
    reset(): void {
      seen.length = 0;
      shut = undefined;
    },
  };
}
