"""app/site/hooks.py: what the static site takes from the app (the build's page and preludes, boot.py's page)."""

from panel.io.state import set_curdoc

from app.program import links
from app.program.examples import EXAMPLES
from app.site.hooks import native_document, site_hooks


def test_the_hooks_name_every_example_default_first():
    hooks = site_hooks()
    assert hooks.examples == tuple(e.slug for e in EXAMPLES)
    explorer, document = hooks.document({})
    assert explorer.store.example == hooks.examples[0] and document.roots


def test_the_share_query_follows_the_program_and_the_step():
    hooks = site_hooks()
    explorer = hooks.explorer({"example": "vector", "step": "2"})
    posted: list[str] = []
    hooks.follow_share_query(explorer, posted.append)
    assert posted == ["example=vector&step=2"]
    explorer.store.goto(4)
    assert posted[-1] == "example=vector&step=5"  # step=n is what the counter shows: k + 1
    explorer.program.editor.value = "import torch\nx = torch.ones(2, requires_grad=True)\n"
    explorer.program.run.clicks += 1
    link = links.parse(dict(part.split("=", 1) for part in posted[-1].split("&")))
    assert link.example is None and link.source == explorer.store.source and "x = torch.ones(2" in link.source


def test_carrying_over_goes_where_the_page_got_without_python():
    hooks = site_hooks()
    explorer, document = native_document({})
    typed = explorer.store.source + "\n# typed while Python was starting\n"
    hooks.carry_over(explorer, {"example": "vector", "k": 3, "source": None, "selected": None})
    assert (explorer.store.example, explorer.store.k) == ("vector", 3)
    key = next(key for key in explorer.graph.boxes.data["key"])
    hooks.carry_over(explorer, {"example": "vector", "k": 3, "source": typed, "selected": key})
    assert explorer.program.editor.value == typed and explorer.store.selected == key
    assert explorer.store.k == 3, "text typed is kept, not run"
    assert not explorer.store.predicting
    hooks.carry_over(explorer, {"example": "vector", "k": 3, "source": typed, "selected": key, "predicting": True})
    assert explorer.store.predicting and explorer.controls.predict.value
    assert explorer.controls.player.direction == 0
    with set_curdoc(document):
        hooks.carry_over(explorer, {"example": "vector", "k": 3, "playing": 1, "view": [0, 1, 0, 1]})
    assert explorer.controls.player.direction == 1, "the player plays on where the page played"
    assert [model.direction for model in document.models if type(model).__name__ == "Player"] == [1]


def test_a_runner_that_answers_later_shows_the_last_program_started():
    """The static site's runner (the program worker) answers with an awaitable: the page keeps what it shows
    until the timeline arrives, and a program started meanwhile wins."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from app.timeline import run

    async def main():
        gate = asyncio.Event()

        async def later(source):
            await gate.wait()
            return run(source)

        explorer = site_hooks().explorer({"example": "vector"}, runner=lambda source: run(source))
        store = explorer.store
        shown = store.timeline
        store.runner = later
        store.load("import torch\nx = torch.ones(2, requires_grad=True)\n")
        store.load("import torch\ny = torch.ones(3, requires_grad=True)\n", step="end")
        assert store.timeline is shown and store.running.endswith("torch.ones(3, requires_grad=True)\n")
        assert store.program == store.running
        gate.set()
        for _ in range(5):
            await asyncio.sleep(0)
        assert store.running is None and store.source.endswith("torch.ones(3, requires_grad=True)\n")
        assert store.k == store.last and explorer.program.run.label == "▶ Run"

    # (a loop of its own, on a thread of its own: the session's sync Playwright holds this thread's loop once a
    # browser test has run)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()
