"""The explorer in Jupyter: `%load_ext autograd_explorer`, then a cell that starts with `%%explore` runs
through the explorer's runner and shows the explorer for it under the cell (magic.py says how)."""


def load_ipython_extension(ipython) -> None:
    import panel as pn

    from autograd_explorer.magic import ExploreMagics

    # Bokeh's and Panel's JavaScript go into the notebook with this cell's output (8 MB), not from a CDN: the
    # explorer works offline in a notebook as it does served and on the static site. Only this cell sends it: a page
    # opened again on a kernel that has it loaded sends it again with `%reload_ext autograd_explorer`.
    pn.extension("codeeditor", notifications=False, inline=True)
    ipython.register_magics(ExploreMagics)
