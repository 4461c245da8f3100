import { describe, expect, it } from "vitest";
import { TokenBucket } from "./backoff.ts";
import { WorkQueue } from "./work-queue.ts";

/** Without jitter (`random: () => 1`), so delays are exact. */
const options = { baseDelayMs: 10, maxDelayMs: 80, random: () => 1, ratePerSecond: 1000, burst: 1000 };

describe("WorkQueue", () => {
  it("queues a key once, however often it is added", async () => {
    const queue = new WorkQueue(options);
    queue.add("a");
    queue.add("b");
    queue.add("a");
    expect(queue.depth).toBe(2);
    expect(await queue.get()).toBe("a");
    expect(await queue.get()).toBe("b");
    expect(queue.depth).toBe(0);
  });

  it("hands a key to one worker at a time and queues it again if added while in flight", async () => {
    const queue = new WorkQueue(options);
    queue.add("a");
    const key = await queue.get();
    queue.add("a");
    queue.add("a");
    // In flight: not handed out a second time.
    expect(queue.depth).toBe(0);
    const next = queue.get();
    let handedOut = false;
    next.then(() => {
      handedOut = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(handedOut).toBe(false);
    queue.done(key as string);
    expect(await next).toBe("a");
    queue.done("a");
    expect(queue.depth).toBe(0);
  });

  it("retries with exponential backoff up to the cap, and forgets after a success", () => {
    const queue = new WorkQueue(options);
    expect([1, 2, 3, 4, 5].map(() => queue.addRateLimited("a"))).toEqual([10, 20, 40, 80, 80]);
    expect(queue.failures("a")).toBe(5);
    queue.forget("a");
    expect(queue.addRateLimited("a")).toBe(10);
  });

  it("delivers a delayed key after its delay, the earliest pending delay winning", async () => {
    const queue = new WorkQueue(options);
    queue.addAfter("a", 40);
    queue.addAfter("a", 5);
    expect(queue.delayed).toBe(1);
    const started = Date.now();
    expect(await queue.get()).toBe("a");
    expect(Date.now() - started).toBeLessThan(35);
  });

  it("drops waiting keys on clear and releases waiting workers on shut down", async () => {
    const queue = new WorkQueue(options);
    queue.add("a");
    queue.addAfter("b", 1_000);
    queue.clear();
    expect(queue.depth).toBe(0);
    expect(queue.delayed).toBe(0);
    const waiting = queue.get();
    queue.shutDown();
    expect(await waiting).toBeUndefined();
    queue.add("c");
    expect(await queue.get()).toBeUndefined();
  });
});

describe("TokenBucket", () => {
  it("allows a burst, then paces reservations at the rate", () => {
    let now = 0;
    const bucket = new TokenBucket(10, 2, () => now);
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 100, 200]);
    now = 1_000;
    expect(bucket.reserve()).toBe(0);
  });
});
