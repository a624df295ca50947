// The browser's wall: every learner program runs in a program worker (static/program.mjs) that is
// terminated when it runs past its time budget plus a margin (1 s: one C call the guard cannot stop), or
// takes longer than send_margin to send its timeline once its budget ended, or dies (its memory cap, a crash
// of Pyodide), and replaced for the next program. The worker posts the program's line as it goes: a
// program stopped is reported at the last line it posted. The app and its document live in another worker and never
// run a program, so they survive whatever the program does.
//
// run({source} or {query}, seconds?) always resolves: {source, json, pieces} (the pieces of what the program
// recorded, which the worker sent as it ran, and its last message, what was not sent: engine/trace/so_far.py) or
// {source, stopped: {type, message, line}, pieces} (why the wall stopped it, and the pieces it had sent: the app puts
// them together and checks them as a timeline, app/timeline_check.py, and shows it, the stop's error after it).

const START_LIMIT_S = 120; // Pyodide and numpy start in a few seconds; a worker that never does is replaced
const SPARE_HEAP = 0.5; // after a run that grew the heap past this share of its cap, start a fresh worker
const MAX_SOURCE = 100_000; // characters: a longer program is refused before it is parsed
const MAX_JSON = 32 * 2 ** 20; // the timeline's JSON, all its pieces together (isolated.browser_json's cap, in
// bytes: no more characters)

// The fields each message of the program worker has (docs/security.md: the worker runs somebody else's program,
// and the app uses none of its messages it has not checked; the timeline itself is checked by the app's Python,
// app/timeline_check.py). Returns what is wrong, or null.
const plain = (value) => value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
const count = (value, top) => Number.isSafeInteger(value) && value >= 0 && value <= top;
const text = (value, top) => typeof value === 'string' && value.length <= top;
const MESSAGES = {
  ready: { timings: (t) => plain(t) && Object.keys(t).length < 100 && Object.values(t).every((v) => count(v, 1e9)) },
  started: { id: Number.isSafeInteger, source: (v) => text(v, MAX_SOURCE) },
  line: { id: Number.isSafeInteger, line: (v) => count(v, MAX_SOURCE + 1) && v > 0 },
  ended: { id: Number.isSafeInteger },
  piece: { id: Number.isSafeInteger, json: (v) => text(v, MAX_JSON) },
  ran: { id: Number.isSafeInteger, source: (v) => text(v, MAX_SOURCE), json: (v) => text(v, MAX_JSON), heap: (v) => count(v, 2 ** 53) },
  failed: { id: (v) => v === undefined || Number.isSafeInteger(v), message: (v) => text(v, 10_000) },
};
export function malformed(msg) {
  if (!plain(msg) || !Object.hasOwn(MESSAGES, msg.type)) return 'a message of no kind the program worker sends';
  const fields = MESSAGES[msg.type];
  for (const key of Object.keys(msg)) {
    if (key !== 'type' && !Object.hasOwn(fields, key)) return `a ${msg.type} message with a field ${key.slice(0, 40)}`;
  }
  for (const [key, ok] of Object.entries(fields)) {
    if (!ok(msg[key])) return `a ${msg.type} message whose ${key} is not one`;
  }
  return null;
}

// What the program worker loads: Pyodide, its standard library and lock, numpy and the project's wheel.
export function programFiles(manifest) {
  return manifest.preload.filter((rel) => rel.startsWith('pyodide/pyodide') || rel.endsWith('stdlib.zip')
    || rel === `pyodide/${manifest.wheels.numpy}` || rel === `pyodide/${manifest.wheels[manifest.project]}`);
}

export class Wall {
  // config: manifest.program ({seconds, margin, send_margin, memory_mb}); seconds may be overridden (tests).
  // shared: program workers wait for provide() and start from what it gives, instead of downloading.
  // started(timings): each program worker's phases (ms from its own start) once it is ready.
  // spare: keep a second worker booted, that takes over when one is stopped (the next program does not wait
  // for Pyodide to start); it boots once the first worker is ready and, with `shared` (the app's worker), once
  // allowSpare() is called (the app is up: the spare must not slow the page's start).
  // margin may be overridden too (tests on a loaded machine).
  // unguarded: the test-only entry (docs/security.md): a program whose first line is `# unguarded` runs in the
  // program worker without the guard. Only the page's tests set it (window.SITE_TEST_UNGUARDED, set before the
  // page's scripts run: no query or link reaches it).
  // stream: the worker sends what a program records in pieces as it runs (false: all in its last message; only for
  // benchmarks/so_far_cost.py, which measures what streaming costs).
  constructor({ manifest, base, seconds, margin, report, started, shared = false, spare = true, unguarded = false,
    stream = true }) {
    this.unguarded = unguarded === true;
    this.stream = stream !== false;
    this.manifest = manifest;
    this.base = base;
    this.config = { ...manifest.program, ...(seconds ? { seconds } : {}), ...(margin ? { margin } : {}) };
    this.report = report || (() => {});
    this.started = started || (() => {});
    this.current = null; // {worker, ready: Promise, pending: Map id -> handlers}
    this.spare = null; // the same, booted (or booting) and idle
    this.keepSpare = spare;
    this.spareAllowed = shared ? new Promise((resolve) => { this.allowSpare = resolve; }) : Promise.resolve();
    this.queue = Promise.resolve();
    this.ids = 0;
    this.first = null; // the run of the page's query, started with the worker: Promise<answer>
    this.stopNow = null; // while a program runs (or waits for its worker): ends it at once (Stop)
    this.runs = 0; // programs run, and workers terminated (the page shows them in window.site.wall)
    this.stopped = 0;
    // Promise<{module, files}>: the app worker's compiled wasm and downloads, once provided
    this.shared = shared ? new Promise((resolve) => { this.provided = resolve; }) : null;
  }

  // Program workers start from these (the app worker's downloads and compiled wasm) instead of their own.
  provide(shared) {
    this.provided(Promise.all([shared.module, shared.files]).then(([module, files]) => ({ module, files })));
  }

  // Start a worker now, and run the program of the page's query in it at once.
  start(query) {
    this.first = this.run({ query });
    return this.first;
  }

  // The timeline of `source`: the query's answer when it was that program, else a new run.
  async program(source) {
    if (this.first) {
      const first = this.first;
      this.first = null;
      const answer = await first;
      if (answer.source === source) return answer;
    }
    return this.run({ source });
  }

  run(program) {
    const job = this.queue.then(() => this.runNow(program));
    this.queue = job.catch(() => {});
    return job;
  }

  spawn() {
    const worker = new Worker(new URL(`static/program.mjs?v=${this.manifest.version}`, this.base), { type: 'module' });
    const current = { worker, handlers: new Map(), dead: null };
    current.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the program worker did not start within ${START_LIMIT_S} s`)),
        START_LIMIT_S * 1000);
      current.started = (msg) => { clearTimeout(timer); resolve(msg.timings); };
      current.dead = (message) => { clearTimeout(timer); reject(new Error(message)); };
    });
    current.ready.catch(() => {});
    let ready = false;
    worker.onmessage = (event) => {
      const msg = event.data;
      const early = !ready && msg.type !== 'ready' && !(msg.type === 'failed' && msg.id === undefined);
      const wrong = malformed(msg) || (early || (ready && msg.type === 'ready') ? `a ${msg.type} message ${ready ? 'after' : 'before'} it started` : null)
        || (msg.id !== undefined && !current.handlers.has(msg.id) ? `a ${msg.type} message of no program it runs` : null);
      if (wrong) return distrust(`the program worker sent ${wrong}`);
      if (msg.type === 'ready') {
        ready = true;
        this.started(msg.timings);
        return current.started(msg);
      }
      if (msg.type === 'failed' && msg.id === undefined) return current.dead(msg.message);
      const handler = current.handlers.get(msg.id);
      if (handler) handler(msg);
    };
    // A worker that sent what it never sends is ended, and whatever it was running with it.
    const distrust = current.distrust = (message) => {
      worker.terminate();
      if (this.current === current) this.current = null;
      if (this.spare === current) this.spare = null;
      current.dead(message);
      for (const handler of current.handlers.values()) handler({ type: 'malformed', message });
    };
    // An uncaught error or a worker that could not be loaded: whatever it was running ends as a crash.
    worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || 'the program worker failed';
      current.dead(message);
      for (const handler of current.handlers.values()) handler({ type: 'failed', message });
    };
    const { manifest, base } = this;
    const init = { type: 'init', manifest, base, memoryMB: this.config.memory_mb, ...(this.unguarded ? { unguarded: true } : {}) };
    Promise.resolve(this.shared).catch(() => null)
      .then((shared) => worker.postMessage({ ...init, shared: shared || undefined }));
    return current;
  }

  // The worker the next program runs in: the current one, else the spare, else a new one.
  take() {
    if (!this.current) {
      this.current = this.spare || this.spawn();
      this.spare = null;
    }
    const current = this.current;
    if (this.keepSpare) Promise.all([current.ready, this.spareAllowed]).then(() => this.bootSpare(), () => {});
    return current;
  }

  bootSpare() {
    if (this.spare) return;
    const spare = this.spawn();
    this.spare = spare;
    spare.ready.catch(() => { // one that could not start is not kept
      if (this.spare === spare) this.spare = null;
      spare.worker.terminate();
    });
  }

  // Stop, pressed by the learner: the program running now ends at once (its worker is terminated: a worker busy
  // in Python hears no message) and is reported as stopped at the last line it posted; the spare takes over.
  // False when no program was running.
  stopRunning() {
    if (!this.stopNow) return false;
    this.stopNow();
    return true;
  }

  stop(current) {
    this.retire(current);
    this.stopped += 1;
  }

  // A worker that ended its program but keeps a big heap: the next program gets a fresh one.
  retire(current) {
    current.worker.terminate();
    if (this.current === current) this.current = null;
  }

  async runNow(program) {
    let source = program.source ?? null;
    const { seconds, margin, send_margin: sendMargin, memory_mb: memoryMB } = this.config;
    const current = this.take();
    const pieces = []; // what the program recorded, as the worker sent it (at most MAX_JSON in all)
    let size = 0;
    const kept = () => ({ pieces });
    const stoppedByLearner = (line) => ({ source, stopped: { type: 'Stopped', message: 'the program was stopped', line }, ...kept() });
    let cancelled = false;
    this.stopNow = () => { cancelled = true; };
    try {
      await current.ready;
    } catch (err) {
      this.stopNow = null;
      this.stop(current);
      return { source, stopped: { type: 'Crash', message: `the program could not be run: ${err.message}` } };
    }
    if (cancelled) { // stopped while its worker was starting: it never ran
      this.stopNow = null;
      this.runs += 1;
      this.report(stoppedByLearner(null).stopped);
      return stoppedByLearner(null);
    }
    const id = (this.ids += 1);
    const answer = await new Promise((resolve) => {
      let timer = null;
      let line = null; // the program's last line, as the worker posted it
      const limit = seconds + margin;
      this.stopNow = () => {
        clearTimeout(timer);
        this.stop(current);
        resolve(stoppedByLearner(line));
      };
      const stopAfter = (s, message) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          this.stop(current);
          resolve({ source, stopped: { type: 'BudgetExceeded', message, line }, ...kept() });
        }, s * 1000);
      };
      current.handlers.set(id, (msg) => {
        if (msg.type === 'line') {
          line = msg.line;
          return;
        }
        if (msg.type === 'piece') {
          size += msg.json.length;
          if (size > MAX_JSON) {
            current.distrust(`the program worker sent pieces past the timeline's cap of ${MAX_JSON / 2 ** 20} MB`);
            return;
          }
          pieces.push(msg.json);
          return;
        }
        if (msg.type === 'malformed') {
          clearTimeout(timer);
          this.stop(current);
          resolve({ source, stopped: { type: 'MalformedMessage', message: `${msg.message}, and was stopped`, line } });
          return;
        }
        if (msg.type === 'started' || msg.type === 'ran') {
          if (program.source !== undefined && msg.source !== program.source) { // (a query's: Wall.program compares)
            return current.distrust(`the program worker sent a ${msg.type} message of a program it was not given`);
          }
        }
        if (msg.type === 'started') {
          source = msg.source;
          stopAfter(limit, `the program ran longer than ${limit} s and was stopped`);
          return;
        }
        if (msg.type === 'ended') {
          stopAfter(sendMargin, `the program's timeline was not sent within ${sendMargin} s of its end and was stopped`);
          return;
        }
        clearTimeout(timer);
        if (msg.type === 'ran') {
          if (msg.heap > SPARE_HEAP * memoryMB * 2 ** 20) this.retire(current);
          resolve({
            source: msg.source, json: msg.json, pieces,
            distrust: () => { // the app's Python found its timeline is not one (app/timeline_check.py)
              this.stop(current);
              this.report({ type: 'MalformedTimeline', message: 'the program worker sent what is not a timeline' });
            },
          });
        } else {
          this.stop(current);
          const memory = /memory|OOM/i.test(msg.message);
          resolve({
            source,
            stopped: memory
              ? { type: 'MemoryError', message: `the program needed more memory than its limit of ${memoryMB.toLocaleString('en-US')} MB and was stopped`, line }
              : { type: 'Crash', message: `the program crashed Python (${msg.message}) and was stopped`, line },
            ...kept(),
          });
        }
      });
      const unguarded = this.unguarded && /^# unguarded\n/.test(program.source ?? '');
      current.worker.postMessage({ type: 'run', id, seconds, memoryMB, stream: this.stream, ...program,
        ...(unguarded ? { unguarded } : {}) });
    });
    current.handlers.delete(id);
    this.stopNow = null;
    this.runs += 1;
    this.report(answer.stopped || null);
    this.take(); // the next program finds a worker started (the spare) or starting
    return answer;
  }
}
