import { BusIntake, NOT_READY, type IntakeMember } from '@swap/messaging';
import { createLogger, ServiceMetrics, type DependencyCheck } from '@swap/observability';
import { LogCapture } from '@swap/testing';
import { ReadinessGate } from './readiness-gate';

/** A dependency the test turns off and on: its check answers or fails as told. */
function dependency(name: string, optional = false): { up: boolean; check: DependencyCheck } {
  const dep = {
    up: true,
    check: {
      name,
      optional,
      check: async () => {
        if (!dep.up) throw new Error(`${name} refused`);
      },
    },
  };
  return dep;
}

/** A taker of shared work that records what it was told. */
class Recorder implements IntakeMember {
  readonly calls: string[] = [];
  pause(reason?: string): void {
    this.calls.push(`pause:${reason}`);
  }
  resume(reason?: string): void {
    this.calls.push(`resume:${reason}`);
  }
}

function setup() {
  const database = dependency('postgresql');
  const cache = dependency('redis', true);
  const intake = new BusIntake();
  const member = new Recorder();
  intake.add(member);
  const logs = new LogCapture();
  const metrics = new ServiceMetrics('test', { defaultMetrics: false });
  const gate = new ReadinessGate({
    checks: [database.check, cache.check],
    intake,
    logger: createLogger({ service: 'test', destination: logs }),
    metrics,
  });
  const gauge = async () => (await metrics.registry.getSingleMetric('bus_intake_paused')!.get()).values[0].value;
  return { database, cache, intake, member, logs, gate, gauge };
}

describe('ReadinessGate', () => {
  it('pauses intake after two failed rounds of a required check, and resumes after three good ones', async () => {
    const { database, intake, member, logs, gate, gauge } = setup();
    await gate.round();
    expect(intake.paused).toBe(false);
    expect(await gauge()).toBe(0);

    database.up = false;
    await gate.round();
    expect(intake.paused).toBe(false); // one slow or failed answer is not enough
    await gate.round();
    expect(intake.paused).toBe(true);
    expect(member.calls).toEqual([`pause:${NOT_READY}`]);
    expect(await gauge()).toBe(1);
    expect(gate.failing).toEqual(['postgresql']);
    expect(logs.where((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'not ready: postgresql failing; taking no bus work until it answers again',
    ]);

    database.up = true;
    await gate.round();
    await gate.round();
    expect(intake.paused).toBe(true);
    expect(gate.goodRoundsSincePause).toBe(2);
    await gate.round();
    expect(intake.paused).toBe(false);
    expect(member.calls).toEqual([`pause:${NOT_READY}`, `resume:${NOT_READY}`]);
    expect(await gauge()).toBe(0);
    expect(logs.where((l) => l.level === 'info').map((l) => l.msg)).toEqual([
      'ready again: postgresql answered 3 checks in a row; taking bus work',
    ]);
  });

  it('does not flap: a dependency that fails every other round keeps intake paused', async () => {
    const { database, intake, member, gate } = setup();
    database.up = false;
    await gate.round();
    await gate.round();
    for (let i = 0; i < 6; i++) {
      database.up = i % 2 === 0;
      await gate.round();
    }
    expect(intake.paused).toBe(true);
    expect(member.calls).toEqual([`pause:${NOT_READY}`]);
  });

  it('never pauses for an optional dependency (a cache the service serves without)', async () => {
    const { cache, intake, gate } = setup();
    cache.up = false;
    for (let i = 0; i < 5; i++) await gate.round();
    expect(intake.paused).toBe(false);
  });

  it('pauses a taker added while paused at once, and changes nothing once stopped', async () => {
    const { database, intake, gate } = setup();
    database.up = false;
    await gate.round();
    await gate.round();
    const late = new Recorder();
    intake.add(late);
    expect(late.calls).toEqual([`pause:${NOT_READY}`]);
    gate.stop();
    database.up = true;
    for (let i = 0; i < 4; i++) await gate.round();
    expect(intake.paused).toBe(true);
  });
});
