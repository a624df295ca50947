"""The Autograd Explorer: a Panel + Bokeh app over the engine's recorded Timeline.

Entry points (no server needed; the same code runs under `panel serve` and inside Pyodide):

- `app.page.create(query: dict) -> pn.Column`: the whole page for one session (stretches to the window).
  `query` is the URL's query as a dict, values as str (or lists of str/bytes, as in
  `pn.state.session_args`): `{"example": "<slug>"}` or `{"code": "<base64url of the UTF-8 program>"}`,
  optionally with `"step": "<k>" | "end"`. A malformed query shows a clear message and the default
  example. Call `.servable()` on the result, or render it however the host page does.
- `app.page.Explorer(query)`: the same page's parts: `.store` (all state), `.page()`, and `.sidebar()` /
  `.main()` for hosts that place them themselves.
- `app.program.examples.EXAMPLES`: the built-in programs (`slug`, `title`, `source`).
- `app.program.links.query_string(source, step, example)`: the query part of a share link.
- `app.site.hooks.site_hooks()`: everything the static site (sitebuild/, static/boot.py) takes from the app.

Constraints kept for Pyodide: no threads, no files, no server-only features, no `sanitize_html`;
each call builds fresh objects, so sessions share no mutable state.

Serve locally: `.venv/bin/panel serve app/main.py` then open http://localhost:5006/main
"""
