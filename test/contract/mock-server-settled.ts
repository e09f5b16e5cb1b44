/**
 * Pact's mock server (the Rust core behind `PactV4`) may answer a request before it has recorded
 * the match: on a loaded machine, `executeTest` then asks "matched?" too early and fails with
 * "The following request was expected but not received" although the client got its answer
 * (seen 1 run in 3 beside other work, never alone). After a consumer check has its answer, this
 * waits (a bounded while) until the mock server says every expected request arrived, so that
 * `executeTest` reads a settled state; a request that truly never came still fails there.
 */
import type { PactV4 } from '@pact-foundation/pact';

/** The part of pact-core's consumer pact the wait reads (`PactV4`'s own handle). */
interface MockServerState {
  mockServerMatchedSuccessfully(port: number): boolean;
}

/** Longest wait for the mock server to record what it answered. */
const SETTLE_MS = 3_000;

/** Waits until the mock server on `port` has recorded every expected request, or `SETTLE_MS` pass. */
export async function mockServerSettled(pact: PactV4, port: number): Promise<void> {
  const core = (pact as unknown as { pact?: MockServerState }).pact;
  if (typeof core?.mockServerMatchedSuccessfully !== 'function') return;
  const until = Date.now() + SETTLE_MS;
  while (!core.mockServerMatchedSuccessfully(port) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}
