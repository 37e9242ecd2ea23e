import fs from 'node:fs/promises';

/** CPU seconds (user + system) a process has used so far, from /proc/PID/stat (Linux). */
export async function cpuSeconds(pid: number, statFile = `/proc/${pid}/stat`): Promise<number> {
  try {
    const stat = await fs.readFile(statFile, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15)
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0; // the process has exited
  }
}

/** Pids of every process whose command name is `comm` (e.g. all PostgreSQL backends). */
export async function pidsByName(comm: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const name = await fs.readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (name.trim() === comm) pids.push(Number(entry));
  }
  return pids;
}

/** CPU seconds used by a set of processes between start() and stop(). */
export class CpuMeter {
  private readonly before = new Map<number, number>();

  constructor(private readonly pids: () => Promise<number[]>) {}

  async start(): Promise<void> {
    for (const pid of await this.pids()) this.before.set(pid, await cpuSeconds(pid));
  }

  /** Processes started after start() count from zero. */
  async stop(): Promise<number> {
    let total = 0;
    for (const pid of await this.pids()) total += Math.max(0, (await cpuSeconds(pid)) - (this.before.get(pid) ?? 0));
    return total;
  }
}

/** CPU seconds of each thread of a process (task id -> seconds). Node names no thread: the main
 * thread is the one whose id is the pid. */
export async function threadCpuSeconds(pid: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const tid of await fs.readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    out.set(Number(tid), await cpuSeconds(pid, `/proc/${pid}/task/${tid}/stat`));
  }
  return out;
}

/** Splits a process's CPU over an interval into its main thread and its busiest other thread. */
export async function threadSplit(pid: number, before: Map<number, number>): Promise<{ main: number; busiest: number; total: number }> {
  const after = await threadCpuSeconds(pid);
  let main = 0;
  let busiest = 0;
  let total = 0;
  for (const [tid, s] of after) {
    const used = Math.max(0, s - (before.get(tid) ?? 0));
    total += used;
    if (tid === pid) main = used;
    else busiest = Math.max(busiest, used);
  }
  return { main, busiest, total };
}
