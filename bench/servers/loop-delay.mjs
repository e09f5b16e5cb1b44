// Preloaded into a server under benchmark (`node --import bench/servers/loop-delay.mjs …`): how long
// the server's event loop was held, read by the benchmark over the IPC channel. Two figures:
// - `maxMs`: the largest delay of a 1 ms timer (`monitorEventLoopDelay`), the longest turn in wall
//   time; on a CPU shared with other processes it also counts the time the process was not scheduled.
// - `maxCpuMs`: the most CPU time the main thread spent between two ticks of a 1 ms interval, the
//   longest turn in work done (Linux: /proc/self/task/PID/schedstat, in ns); time spent descheduled
//   and other threads' work (concurrent GC, the thread pool) do not count. Elsewhere, the process's
//   CPU time (`process.cpuUsage`), which counts every thread.
// Messages: 'reset' (answers {reset: true}), 'read' (answers the figures since the last reset, and
// the process's memory: `rssMb`, `heapMb` after a full GC when started with --expose-gc).
// LOOP_DELAY_PROFILE=FILE: a CPU profile (V8's, as --cpu-prof writes) from each 'reset' to the next
// 'read', written to FILE (the process is stopped with SIGKILL, so --cpu-prof would write nothing).
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
/** CPU time of the main thread in ms (of the process, where /proc is not there). */
const threadCpuMs = (() => {
  try {
    readFileSync(SCHEDSTAT, 'latin1');
    return () => Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1e3;
    };
  }
})();

if (process.send) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let cpu = process.cpuUsage();
  let lastCpu = threadCpuMs();
  let maxCpuMs = 0;
  // LOOP_DELAY_TRACE=MS: every turn of more than MS of CPU is printed (monotonic µs, as in a --cpu-prof profile).
  const trace = Number(process.env.LOOP_DELAY_TRACE ?? 0);
  let lastTick = process.hrtime.bigint();
  const tick = setInterval(() => {
    const now = threadCpuMs();
    maxCpuMs = Math.max(maxCpuMs, now - lastCpu);
    if (trace) {
      const at = process.hrtime.bigint();
      if (now - lastCpu > trace) console.error(`long turn ${(now - lastCpu).toFixed(1)} ms cpu: ${lastTick / 1000n}..${at / 1000n}`);
      lastTick = at;
    }
    lastCpu = now;
  }, 1);
  tick.unref();
  const profileFile = process.env.LOOP_DELAY_PROFILE;
  const session = profileFile ? new Session() : undefined;
  session?.connect();
  const post = (method, params = {}) =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  if (session) await post('Profiler.enable');
  let profiling = false;
  process.on('message', async (message) => {
    if (session && message === 'reset' && !profiling) {
      await post('Profiler.setSamplingInterval', { interval: 200 });
      await post('Profiler.start');
      profiling = true;
    }
    if (session && message === 'read' && profiling) {
      writeFileSync(profileFile, JSON.stringify((await post('Profiler.stop')).profile));
      profiling = false;
    }
    if (message === 'reset') {
      delay.reset();
      cpu = process.cpuUsage();
      lastCpu = threadCpuMs();
      maxCpuMs = 0;
      process.send({ reset: true });
    } else if (message === 'read') {
      const used = process.cpuUsage(cpu);
      const figures = { maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6, maxCpuMs, cpuMs: (used.user + used.system) / 1e3 };
      globalThis.gc?.();
      const memory = process.memoryUsage();
      process.send({ ...figures, rssMb: memory.rss / 2 ** 20, heapMb: (memory.heapUsed + memory.external) / 2 ** 20 });
    }
  });
  // The channel must not keep a server alive that would otherwise end.
  process.channel?.unref();
}
