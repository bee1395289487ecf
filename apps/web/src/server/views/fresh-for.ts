/**
 * `ask` answered from memory for `freshMs` after it last answered; callers arriving while it runs share
 * that one call. `now` is the clock (tests pass their own).
 */
export function freshFor<T>(freshMs: number, ask: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; answer: T } | undefined;
  let running: Promise<T> | undefined;
  return () => {
    if (last && now() - last.at < freshMs) return Promise.resolve(last.answer);
    running ??= ask()
      .then((answer) => {
        last = { at: now(), answer };
        return answer;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}
