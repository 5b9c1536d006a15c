const { appendFileSync, readFileSync } = require('node:fs');
const { TestEnvironment } = require('jest-environment-node');

/** CPU time (ms) of this process's ended and reaped children (git, engines, CLIs…), from /proc (Linux; elsewhere 0). */
function childrenMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Jest's node environment that writes, for each test file, its wall time and the CPU time its
 * worker spent on it (user, system, and its ended children's) as a JSON line to TEST_CPU_LOG:
 * where the run's CPU goes, file by file (jest itself reports only wall times, which a busy
 * machine stretches). Used when TEST_CPU_LOG is set (jest.config.cjs).
 */
class CpuEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.file = context.testPath;
  }

  async setup() {
    await super.setup();
    this.started = Date.now();
    this.cpu = process.cpuUsage();
    this.children = childrenMs();
  }

  async teardown() {
    const cpu = process.cpuUsage(this.cpu);
    const line = {
      file: this.file,
      wall: Date.now() - this.started,
      user: Math.round(cpu.user / 1000),
      sys: Math.round(cpu.system / 1000),
      children: childrenMs() - this.children,
      worker: process.pid,
    };
    appendFileSync(process.env.TEST_CPU_LOG, `${JSON.stringify(line)}\n`);
    await super.teardown();
  }
}

module.exports = CpuEnvironment;
