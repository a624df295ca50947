// The browser's wall: every learner program runs in a program worker (static/program.mjs) that is
// terminated when it runs past its time budget plus a margin (1 s: one C call the guard cannot stop), or
// takes longer than send_margin to send its timeline once its budget ended, or dies (its memory cap, a crash
// of Pyodide), and replaced for the next program. The worker posts the program's line as it goes: a
// program stopped is reported at the last line it posted. The app and its document live in another worker and never
// run a program, so they survive whatever the program does.
//
// run({source} or {query}, seconds?) always resolves: {source, json} (the timeline's JSON, as
// engine.trace writes it) or {source, stopped: {type, message}} (why the wall stopped it).

const START_LIMIT_S = 120; // Pyodide and numpy start in a few seconds; a worker that never does is replaced
const SPARE_HEAP = 0.5; // after a run that grew the heap past this share of its cap, start a fresh worker

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
  constructor({ manifest, base, seconds, margin, report, started, shared = false, spare = true }) {
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
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === 'ready') {
        this.started(msg.timings);
        return current.started(msg);
      }
      if (msg.type === 'failed' && msg.id === undefined) return current.dead(msg.message);
      const handler = current.handlers.get(msg.id);
      if (handler) handler(msg);
    };
    // An uncaught error or a worker that could not be loaded: whatever it was running ends as a crash.
    worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || 'the program worker failed';
      current.dead(message);
      for (const handler of current.handlers.values()) handler({ type: 'failed', message });
    };
    const { manifest, base } = this;
    const init = { type: 'init', manifest, base, memoryMB: this.config.memory_mb };
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
    const stoppedByLearner = (line) => ({ source, stopped: { type: 'Stopped', message: 'the program was stopped', line } });
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
          resolve({ source, stopped: { type: 'BudgetExceeded', message, line } });
        }, s * 1000);
      };
      current.handlers.set(id, (msg) => {
        if (msg.type === 'line') {
          line = msg.line;
          return;
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
          resolve({ source: msg.source, json: msg.json });
        } else {
          this.stop(current);
          const memory = /memory|OOM/i.test(msg.message);
          resolve({
            source,
            stopped: memory
              ? { type: 'MemoryError', message: `the program needed more memory than its limit of ${memoryMB.toLocaleString('en-US')} MB and was stopped`, line }
              : { type: 'Crash', message: `the program crashed Python (${msg.message}) and was stopped`, line },
          });
        }
      });
      current.worker.postMessage({ type: 'run', id, seconds, memoryMB, ...program });
    });
    current.handlers.delete(id);
    this.stopNow = null;
    this.runs += 1;
    this.report(answer.stopped || null);
    this.take(); // the next program finds a worker started (the spare) or starting
    return answer;
  }
}
