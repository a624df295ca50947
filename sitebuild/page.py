"""index.html: the app's page rendered at build time as Panel's own converter renders it (template,
resources), every CDN URL made the site's own, scripts deferred so the first paint waits for none."""

from __future__ import annotations

import html
import re

from bokeh.core.json_encoder import serialize_json
from bokeh.core.templates import FILE, MACROS, get_env
from bokeh.embed.elements import script_for_render_items
from bokeh.embed.util import standalone_docs_json_and_render_items
from bokeh.embed.wrappers import wrap_in_script_tag
from bokeh.util.serialization import make_id
from panel.io.resources import BASE_TEMPLATE, CDN_DIST, Resources, bundle_resources
from panel.io.state import set_curdoc
from panel.theme.base import design_template_variables

from app.site.hooks import SiteHooks
from sitebuild.base import BuildError
from sitebuild.preludes import prelude_json
from sitebuild.urls import BOKEH_URL, PANEL_ROOT_URL

CDN_BOKEH = re.compile(r"https://cdn\.bokeh\.org/bokeh/release/bokeh-((?:[a-z]+-)?)\d+\.\d+\.\d+(?:\.dev\d+)?"
                       r"\.min\.js")
WEB_FONTS = re.compile(r"""<link[^>]+href=["']https://fonts\.(?:googleapis|gstatic)\.com/[^>]*>\s*""")
# The scripts static/loader.js loads itself, gzipped, in the page's order: BokehJS, Panel's bundle and the code
# editor (Ace), 3.5 MB as plain files, 0.9 MB gzipped.
LOADER_SCRIPTS = re.compile(r'<script defer[^>]*src="((?:static/bokeh/bokeh[-a-z]*|static/panel/[^"]*/panel)'
                            r'\.min\.js|static/panel/[^"]*/aceplot/[^"]*\.js)"[^>]*></script>\s*')


def render_page(hooks: SiteHooks, query: dict[str, str]) -> tuple[str, str, int, str, str | None]:
    """Run the app natively and render its page as panel's own converter does (template, resources).
    Returns (the page with empty roots, the same page with the document prerendered, number of roots, the
    page's prelude (see prelude_json), the slug of the example it shows or None)."""
    if not CDN_DIST.startswith(PANEL_ROOT_URL):
        raise BuildError("Panel was imported before PANEL_CDN_ROOT was set: build with sitebuild.build()")
    explorer, document = hooks.document(query)
    docs_json, render_items = standalone_docs_json_and_render_items(document)
    prelude = prelude_json(hooks, explorer, document)
    render_item = render_items[0]
    json_id = make_id()
    plot_script = wrap_in_script_tag(html.escape(serialize_json(docs_json), quote=False), "application/json",
                                     json_id)
    plot_script += wrap_in_script_tag(script_for_render_items(json_id, render_items))
    template = document.template
    if template is None or template is FILE:
        template = BASE_TEMPLATE
    elif isinstance(template, str):
        template = get_env().from_string("{% extends base %}\n" + template)
    with set_curdoc(document):
        bokeh_js, bokeh_css = bundle_resources(document.roots, Resources(mode="cdn"))
        context = {**design_template_variables(), **document._template_variables}
    context.update(title=document.title, bokeh_js="<!--site:head-->\n" + bokeh_js, bokeh_css=bokeh_css,
                   docs=render_items, base=BASE_TEMPLATE, macros=MACROS, doc=render_item,
                   roots=render_item.roots, manifest=None, dist_url=CDN_DIST, pyodide=True)
    page_html = template.render({**context, "plot_script": "<!--site:body-->"})
    prerendered = template.render({**context, "plot_script": plot_script})
    return page_html, prerendered, len(document.roots), prelude, explorer.store.example


def defer_scripts(page_html: str) -> str:
    """Classic scripts with a src load without blocking the first paint (they keep their order)."""
    def add(m: re.Match) -> str:
        tag = m.group(0)
        return tag if re.search(r"\b(defer|async)\b|type=.module", tag) else tag.replace("<script", "<script defer", 1)
    page_html = re.sub(r"<script\b[^>]*\bsrc=[^>]*>", add, page_html)

    # Inline scripts that call Bokeh directly run once static/loader.js has loaded BokehJS.
    def wait(m: re.Match) -> str:
        body = m.group(2)
        if not re.match(r"\s*Bokeh\.", body):
            return m.group(0)
        return f'{m.group(1)}window.addEventListener("site-scripts", () => {{{body}}}, {{once: true}});</script>'
    return re.sub(r"(<script(?![^>]*\bsrc=)[^>]*>)(.*?)</script>", wait, page_html, flags=re.S)


def localize(page_html: str) -> str:
    """Every CDN URL of the page made the site's own; the build fails if any other host is left."""
    # Web fonts are decoration: the templates name system fonts after them.
    page_html = WEB_FONTS.sub("", page_html)
    page_html = CDN_BOKEH.sub(lambda m: f"{BOKEH_URL}bokeh-{m.group(1)}min.js".replace("bokeh-min", "bokeh.min")
                              .replace("-min.js", ".min.js"), page_html)
    remote = sorted(set(re.findall(r"""(?:src|href)=["'](https?://[^"']+)""", page_html)))
    if remote:
        raise BuildError("index.html still loads files from other sites: " + ", ".join(remote))
    return page_html


def local_urls(page_html: str) -> list[str]:
    urls = re.findall(r"""(?:src|href)=["']([^"'#?]+)""", page_html)
    return sorted({u for u in urls if u.startswith(("static/", "./static/"))})


def take_loader_scripts(page_html: str) -> tuple[str, list[str]]:
    """The page without the script tags static/loader.js replaces, and their URLs in the page's order."""
    scripts = []

    def take(m: re.Match) -> str:
        scripts.append(m.group(1))
        return ""
    page_html = LOADER_SCRIPTS.sub(take, page_html)
    if not any(u.endswith("/bokeh.min.js") for u in scripts):
        raise BuildError("index.html does not load BokehJS as expected")
    return page_html, scripts
