/**
 * `npx tsx scripts/bench/traceTasks.ts <file.trace.json> [minMs]`: the long tasks of a page's main
 * thread in a DevTools trace written by BENCH_LIGHTHOUSE_PROFILE (lighthouse.ts), each with what it
 * spent its time on (script by file, layout, style, garbage collection, parsing) and its first
 * script. Durations as traced (the CPU slowed 4×, as Lighthouse's mobile setting simulates).
 */
import fs from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; frame?: string } };
}

const [file, min] = process.argv.slice(2);
if (!file) throw new Error('usage: traceTasks.ts <file.trace.json> [minMs]');
const minMs = Number(min ?? 50);
const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;

// The renderer's main thread: the thread named CrRendererMain with the most events.
const mainThreads = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
const count = (pid: number, tid: number) => events.filter((e) => e.pid === pid && e.tid === tid).length;
const main = mainThreads.sort((a, b) => count(b.pid, b.tid) - count(a.pid, a.tid))[0];
if (!main) throw new Error('no renderer main thread in the trace');
const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
const start = Math.min(...onMain.map((e) => e.ts));

const short = (url: string | undefined) => (url ? url.replace(/^.*\//, '') : '');
const kindOf = (e: TraceEvent): string | null => {
  switch (e.name) {
    case 'FunctionCall':
    case 'EvaluateScript':
    case 'v8.evaluateModule':
    case 'TimerFire':
    case 'FireAnimationFrame':
    case 'EventDispatch':
    case 'RunMicrotasks':
      return null; // containers: their children say more
    case 'V8.GCScavenger':
    case 'MinorGC':
    case 'MajorGC':
    case 'V8.GCFinalizeMC':
    case 'BlinkGC.AtomicPhase':
      return 'garbage collection';
    case 'Layout':
      return 'layout';
    case 'UpdateLayoutTree':
    case 'RecalculateStyles':
      return 'style';
    case 'Paint':
    case 'PrePaint':
    case 'Layerize':
    case 'UpdateLayer':
    case 'CompositeLayers':
      return 'paint';
    case 'ParseHTML':
    case 'ParseAuthorStyleSheet':
      return 'parse HTML/CSS';
    case 'v8.compile':
    case 'v8.compileModule':
    case 'V8.CompileCode':
      return 'compile';
    default:
      return null;
  }
};

const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
for (const task of tasks.sort((a, b) => a.ts - b.ts)) {
  const dur = task.dur! / 1000;
  if (dur < minMs) continue;
  const end = task.ts + task.dur!;
  const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end);
  const spent = new Map<string, number>();
  const add = (kind: string, us: number) => spent.set(kind, (spent.get(kind) ?? 0) + us);
  // Script time by file: the outermost script events; the rest by kind (nested kinds are not double-counted).
  const scripts = inside.filter((e) =>
    ['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'TimerFire', 'EventDispatch'].includes(e.name),
  );
  const outer = scripts.filter((e) => !scripts.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur!));
  for (const e of outer) add(`script ${short(e.args?.data?.url) || e.name}`, e.dur!);
  for (const e of inside) {
    const kind = kindOf(e);
    if (kind) add(kind, e.dur!);
  }
  const first = outer[0];
  console.log(
    `${((task.ts - start) / 1000).toFixed(0).padStart(6)} ms  ${dur.toFixed(0).padStart(4)} ms  first: ${first ? `${first.name} ${short(first.args?.data?.url)}` : (inside[0]?.name ?? '—')}`,
  );
  for (const [kind, us] of [...spent].sort((a, b) => b[1] - a[1]).slice(0, 6))
    console.log(`${' '.repeat(26)}${(us / 1000).toFixed(0).padStart(5)} ms  ${kind}`);
}
