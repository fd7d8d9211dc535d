/**
 * Turns a function of many inputs into one of a single input: the calls made while a batch runs
 * are gathered into the next batch. The first call runs at once (no added wait when calls are
 * rare); under load one run serves many callers. A failed run fails every call of its batch.
 */
export function batchCalls<I, O>(run: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
  type Call = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };
  let waiting: Call[] = [];
  let running = false;

  const drain = async () => {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        const outputs = await run(batch.map((call) => call.input));
        batch.forEach((call, i) => call.resolve(outputs[i]!));
      } catch (error) {
        batch.forEach((call) => call.reject(error));
      }
    }
    running = false;
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (!running) void drain();
    });
}
